#!/usr/bin/env bash
# CI's bounded fuzz runs (libFuzzer + ASan): the price parser, and the PNG decoder that reads
# images over the pixel limit (Sources/CReducedPNG, with UBSan too): no crash, no hang.
# Longer runs: FUZZ_SECONDS=600 scripts/fuzz-parser.sh, FUZZ_SECONDS=600 scripts/fuzz-png.sh
set -euo pipefail
source "$(dirname "$0")/env.sh"
for target in parser png; do
    log="${TMPDIR:-/tmp}/pricecam-fuzz-$target.log"
    if FUZZ_SECONDS="${FUZZ_SECONDS:-30}" "$ROOT/scripts/fuzz-$target.sh" > "$log" 2>&1; then
        grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$log" || tail -n 5 "$log"
        echo "fuzz $target: no crash, no hang (full log: $log)"
    else
        tail -n 60 "$log"
        echo "fuzz $target: FAILED (full log: $log; crashing inputs are kept under .build-$target/fuzz/)" >&2
        exit 1
    fi
done
