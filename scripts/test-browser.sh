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

bin="${PRICECAM_BIN:-$(swift build --show-bin-path)/pricecam}"
[ -x "$bin" ] || { echo "test-browser: $bin is not built (swift build first)" >&2; exit 2; }

work="$(mktemp -d)"
shots="${SHOTS:-$work/screenshots}"
log="$work/serve.log"
cleanup() {
    [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The camera replays one fixture, so its prices are stable and drawn on the frame.
mkdir -p "$work/replay"
cp Fixtures/clean/frame_0003.png "$work/replay/"
PRICECAM_HOME="$work/home" OMP_THREAD_LIMIT=1 "$bin" serve --port 0 --replay "$work/replay" --fps 5 --loop --jobs 1 2>"$log" &
pid=$!
url=""
for _ in $(seq 1 300); do
    url="$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -1 || true)"
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "test-browser: pricecam serve did not start" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "test-browser: no address from pricecam serve" >&2; exit 1; }

/usr/bin/python3 scripts/browser/test_app.py "$url" "$PWD/Fixtures" "$shots"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=""
[ "$status" -eq 0 ] || { cat "$log" >&2; echo "test-browser: serve exited $status after SIGTERM" >&2; exit 1; }
echo "test-browser: PASS"
