#!/usr/bin/env bash
# Quick start, tests: installs what is missing, builds, and runs every test:
# the Swift test suite (unit, fixture regression through real Tesseract, CLI
# bad-input and contract tests), then the script-level checks.
#   scripts/test.sh            everything
#   SKIP_V4L2=1 scripts/test.sh  everything but the QEMU/vivid end-to-end test
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
# Each test script installs what it needs itself (scripts/test-script-deps.sh checks that).
"$ROOT/scripts/bootstrap.sh" --test --langs --frames   # --frames: test-v4l2.sh draws its frames with Pillow

echo "== swift build" >&2
swift build --build-tests >&2
echo "== swift test" >&2
# The web app's in-process server tests run on their own, after the rest: their handlers and
# clients are async and need Swift's cooperative threads (one per core), which the long
# synchronous OCR tests hold while they read; run alongside them, a live-feed GET waited
# over 20 s on a loaded 2-core machine (the live test took 30 s beside the fixture suites,
# 1.5 s alone).
swift test --skip-build --skip ServerTests
echo "== swift test (the web app's server tests)" >&2
swift test --skip-build --filter ServerTests

for t in scripts/test-*.sh; do
    [ -e "$t" ] || continue
    case "$t" in
        scripts/test-v4l2.sh) [ "${SKIP_V4L2:-0}" = 1 ] && { echo "== $t skipped (SKIP_V4L2=1)" >&2; continue; } ;;
    esac
    echo "== $t" >&2
    bash "$t"
done
echo "all tests passed" >&2
