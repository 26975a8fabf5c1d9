#!/usr/bin/env bash
# Module edges say the truth: runs scripts/check-imports.py on the package, then shows the
# check can fail, on copies of the manifest and sources with one known gap each (a module
# imported but not declared, as pricecam's five once were; a declared edge no file uses, as
# Pipeline's History once was before Pipeline made history rows).
set -euo pipefail
source "$(dirname "$0")/env.sh"
check="$ROOT/scripts/check-imports.py"
/usr/bin/python3 "$check" "$ROOT"

work=$(mktemp -d "${TMPDIR:-/tmp}/pricecam-imports.XXXXXX")
trap 'rm -rf "$work"' EXIT
fresh_copy() {
    rm -rf "$work/p"; mkdir -p "$work/p"
    cp -r "$ROOT/Package.swift" "$ROOT/Sources" "$ROOT/Tests" "$work/p/"
}

fresh_copy
printf '%s Capture\n' import > "$work/p/Sources/OCR/Undeclared.swift"
expect_problem "undeclared import" "Sources/OCR/Undeclared.swift:1: imports Capture, which target OCR does not declare" /usr/bin/python3 "$check" "$work/p"

fresh_copy
perl -0pi -e 's/(name: "PriceParsing", dependencies: \[)/$1"Capture", /' "$work/p/Package.swift"
grep -q 'dependencies: \["Capture", "Geometry"' "$work/p/Package.swift" || { echo "  FAIL: Package.swift changed; update this test's edit" >&2; exit 1; }
expect_problem "unused declaration" "target PriceParsing declares Capture but no file of Sources/PriceParsing imports it" /usr/bin/python3 "$check" "$work/p"

[ "$failures" -eq 0 ] || { echo "$failures check(s) of check-imports.py failed" >&2; exit 1; }
echo "check-imports.py catches both gaps" >&2
