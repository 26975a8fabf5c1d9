#!/usr/bin/env bash
# CI's bounded fuzz run of the price parser (libFuzzer + ASan): no crash, no hang.
# Longer runs: FUZZ_SECONDS=600 scripts/fuzz-parser.sh
set -euo pipefail
source "$(dirname "$0")/env.sh"
log="${TMPDIR:-/tmp}/pricecam-fuzz.log"
if FUZZ_SECONDS="${FUZZ_SECONDS:-30}" "$ROOT/scripts/fuzz-parser.sh" > "$log" 2>&1; then
    grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$log" || tail -n 5 "$log"
    echo "fuzz: no crash, no hang (full log: $log)"
else
    tail -n 60 "$log"
    echo "fuzz: FAILED (full log: $log; crashing inputs are kept under .build-parser/fuzz/)" >&2
    exit 1
fi
