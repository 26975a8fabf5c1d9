#!/usr/bin/env bash
# CI's bounded fuzz run of the price parser (libFuzzer + ASan): no crash, no hang.
# Longer runs: FUZZ_SECONDS=600 scripts/fuzz-parser.sh
set -euo pipefail
source "$(dirname "$0")/env.sh"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}" exec "$ROOT/scripts/fuzz-parser.sh"
