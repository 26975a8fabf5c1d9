#!/usr/bin/env bash
# Load check of the web app (prints figures; fails only when a request goes
# unanswered, a price is missing from history, or a browser gets no live frame):
# 8 clients x 50 scans over loopback, then 3 WebSocket browsers on the camera.
#   scripts/test-serve-load.sh [CLIENTS] [SCANS_EACH]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

bin="${PRICECAM_BIN:-$(swift build --show-bin-path)/pricecam}"
[ -x "$bin" ] || { echo "test-serve-load: $bin is not built (swift build first)" >&2; exit 2; }
work="$(mktemp -d)"
log="$work/serve.log"
cleanup() {
    [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
PRICECAM_HOME="$work/home" "$bin" setup --currency EUR --rate 1.1 --home USD >/dev/null
# Scans take the cores' OCR workers; the camera replays fixtures at 10 fps with one more.
PRICECAM_HOME="$work/home" "$bin" serve --port 0 --replay Fixtures/clean --fps 10 --loop 2>"$log" &
pid=$!
url=""
for _ in $(seq 1 300); do
    url="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1 || true)"
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "test-serve-load: no address from pricecam serve" >&2; exit 1; }
/usr/bin/python3 scripts/serve_load.py "$url" "$PWD/Fixtures" "${1:-8}" "${2:-50}"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=""
[ "$status" -eq 0 ] || { cat "$log" >&2; echo "test-serve-load: serve exited $status after SIGTERM" >&2; exit 1; }
echo "test-serve-load: PASS"
