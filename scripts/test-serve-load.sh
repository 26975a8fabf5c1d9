#!/usr/bin/env bash
# Load check of the web app (prints figures; fails only when a request goes
# unanswered, a price is missing from history, or a browser gets no live frame):
# 8 clients x 50 scans over loopback, then 3 WebSocket browsers on the camera.
#   scripts/test-serve-load.sh [CLIENTS] [SCANS_EACH]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

bin="$(test_pricecam)"
serve_scratch
PRICECAM_HOME="$work/home" "$bin" setup --currency EUR --rate 1.1 --home USD >/dev/null
# Scans take the cores' OCR workers; the camera replays fixtures at 10 fps with as many more.
start_serve "$bin" "$work/home" "$work/serve.log" --replay Fixtures/clean --fps 10 --loop
/usr/bin/python3 scripts/serve_load.py "$serve_url" "$PWD/Fixtures" "${1:-8}" "${2:-50}"
stop_serve
echo "test-serve-load: PASS"
