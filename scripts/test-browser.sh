#!/usr/bin/env bash
# The web app in a real browser: starts `pricecam serve` (a private settings and
# history folder, the camera replaying a fixture) and drives it with headless
# Chromium through Selenium (scripts/browser/test_app.py). Screenshots go to
# SHOTS (default: a temporary folder; the README's come from
# `SHOTS=scripts/browser/screenshots bash scripts/test-browser.sh`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/bootstrap.sh --browser

bin="$(test_pricecam)"
work="$(mktemp -d)"
shots="${SHOTS:-$work/screenshots}"
cleanup() {
    [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The camera replays one fixture, so its prices are stable and drawn on the frame.
mkdir -p "$work/replay"
cp Fixtures/clean/frame_0003.png "$work/replay/"
start_serve "$bin" "$work/home" "$work/serve.log" --replay "$work/replay" --fps 5 --loop --jobs 1
/usr/bin/python3 scripts/browser/test_app.py "$serve_url/" "$PWD/Fixtures" "$shots"
stop_serve
echo "test-browser: PASS"
