#!/usr/bin/env bash
# Regenerates Sources/PriceParsing/CurrencySymbols.swift (the CLDR currency symbols the
# parser reads as markers) and CurrencyDigits.swift (the digits prices are printed with) with scripts/gen-markers.py and a pinned Babel (CLDR data).
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh" --bench
venv="$ROOT/scripts/.cache/venv-parse-peers"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import babel' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q babel==2.18.0 >&2
fi
"$venv/bin/python" "$ROOT/scripts/gen-markers.py" "$ROOT"
# formatted as the rest of the tree (.swift-format), so that scripts/test-format.sh passes
swift format format -i "$ROOT/Sources/PriceParsing/CurrencySymbols.swift" "$ROOT/Sources/PriceParsing/CurrencyDigits.swift"
