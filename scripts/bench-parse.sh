#!/usr/bin/env bash
# Parser throughput: lines per second of PriceParser per corpus (receipts, menus, tags,
# noise), then pricecam's parser against price-parser (PyPI, Zyte's library) on the same
# 100 000 shop lines (one pass each, best of 3; pricecam's ratio should stay >= 10x).
#   BENCH_SECONDS=1 per corpus   BENCH_LINES=100000
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
"$ROOT/scripts/bootstrap.sh" --bench
OUT=.build-parser/bench
mkdir -p "$OUT"
mapfile -t sources < <(parser_sources)
swiftc -O -wmo -module-name PriceParsingBench "${sources[@]}" scripts/fuzz/bench/*.swift -o "$OUT/parser-bench"
"$OUT/parser-bench"

# price-parser goes into scripts/.cache/venv-parse-peers (pip, PyPI only)
venv="$ROOT/scripts/.cache/venv-parse-peers"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import price_parser' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q price-parser==0.5.1 >&2
fi
lines="$OUT/lines.txt"
"$OUT/parser-bench" --lines "$lines" "${BENCH_LINES:-100000}"
read -r ours ours_found < <("$OUT/parser-bench" --file "$lines")
read -r theirs theirs_found < <("$venv/bin/python" - "$lines" <<'PY'
import sys, time
from price_parser import Price
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
best, found = float("inf"), 0
for _ in range(3):
    t0 = time.perf_counter()
    found = sum(1 for l in lines if Price.fromstring(l).amount is not None)
    best = min(best, time.perf_counter() - t0)
print(f"{len(lines) / best:.0f} {found}")
PY
)
n=$(wc -l < "$lines")
echo "same $n lines ($lines):"
printf '  %-13s %10s lines/s  (%s prices)\n' pricecam "$ours" "$ours_found" price-parser "$theirs" "$theirs_found (at most one per line)"
awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "  ratio         %10.1fx\n", a / b }'
