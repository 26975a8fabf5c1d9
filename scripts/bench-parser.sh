#!/usr/bin/env bash
# Lines per second of PriceParser on realistic OCR text (receipts, menus, tags, noise).
#   BENCH_SECONDS=1 per corpus
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=.build-parser/bench
mkdir -p "$OUT"
swiftc -O -wmo -module-name PriceParsingBench Sources/PriceParsing/*.swift scripts/fuzz/bench/main.swift -o "$OUT/parser-bench"
"$OUT/parser-bench"
