#!/usr/bin/env bash
# Differential check of PriceParsing: the parser of the work tree must find exactly what the
# parser of BASE (a git revision; default: where this branch left main) finds on the bench corpora, the strings of
# Tests/PriceParsingTests, the fixtures' texts and 200 000 random lines, under several
# options, with and without word boxes, line by line and by page (Dump.swift). Any
# difference in text, amount (down to Decimal's fields), currency, marker, box, confidence
# bits, flags, role or unit fails it.
#   scripts/fuzz/bench/diff-check.sh [BASE]
set -euo pipefail
source "$(dirname "$0")/../../env.sh"
cd "$ROOT"
base_rev="${1:-$(git merge-base HEAD main)}"
base_tree=$(git rev-parse --verify "$base_rev:Sources/PriceParsing")
OUT=.build-parser/diff
mkdir -p "$OUT"

# strings of the parser tests (Swift escapes decoded) and the texts fixtures expect, one per line
python3 - "$OUT/extra.txt" <<'PY'
import glob, json, re, sys
lines = []
for path in sorted(glob.glob("Tests/PriceParsingTests/*.swift")):
    for lit in re.findall(r'"((?:[^"\\\n]|\\.)*)"', open(path, encoding="utf-8").read()):
        lit = re.sub(r'\\u\{([0-9A-Fa-f]+)\}', lambda m: chr(int(m.group(1), 16)), lit)
        lines.append(lit.replace('\\"', '"').replace("\\\\", "\\").replace("\\t", "\t").replace("\\n", "\n"))
for path in sorted(glob.glob("Fixtures/*/gt.json")):
    for frame in json.load(open(path, encoding="utf-8")).values():
        lines += frame.get("texts", [])
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(lines) + "\n")
PY

harness=(scripts/fuzz/bench/*.swift)
key=$(cat "${harness[@]}" | sha1sum | cut -c1-12)
dump() {  # $1: folder holding Sources/PriceParsing, $2: dump file
    local sources
    mapfile -t sources < <(parser_sources "$1")
    swiftc -O -wmo -module-name PriceParsingBench "${sources[@]}" "${harness[@]}" -o "$2.bin"
    "$2.bin" --dump "$2" "$OUT/extra.txt"
}
base_dump="$OUT/base-${base_tree:0:12}-$key.dump"  # by the parser's sources, not the commit
if [ ! -s "$base_dump" ]; then
    rm -rf "$OUT/base-src" && mkdir -p "$OUT/base-src"
    git archive "$base_rev" Sources/PriceParsing $(git ls-tree --name-only "$base_rev" Sources/Geometry) | tar -x -C "$OUT/base-src"
    dump "$OUT/base-src" "$base_dump.tmp" && mv "$base_dump.tmp" "$base_dump"
fi
dump . "$OUT/work.dump"
if cmp -s "$base_dump" "$OUT/work.dump"; then
    echo "diff-check: identical to $base_rev ($(wc -l < "$base_dump") match records, $(wc -l < "$OUT/extra.txt") extra lines)"
else
    echo "diff-check: DIFFERENT from $base_rev; first differences:" >&2
    diff "$base_dump" "$OUT/work.dump" | head -20 >&2
    exit 1
fi
