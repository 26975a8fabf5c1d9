#!/usr/bin/env bash
# The web app in a real browser, twice:
# 1. `pricecam serve` over HTTP (a private settings and history folder, the camera
#    replaying a fixture), driven by headless Chromium through Selenium
#    (scripts/browser/test_app.py);
# 2. `pricecam serve --tls` with no camera of its own, and Chromium with a fake
#    camera playing a fixture (a Y4M made from it) in a phone-sized window: the
#    page sends the frames and draws the prices (scripts/browser/test_camera.py);
#    curl checks the certificate and the fingerprint serve printed.
# Screenshots go to
# SHOTS (default: a temporary folder; the README's come from
# `SHOTS=scripts/browser/screenshots bash scripts/test-browser.sh`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/bootstrap.sh --browser --frames --langs

bin="$(test_pricecam)"
serve_scratch
shots="${SHOTS:-$work/screenshots}"

# The camera replays one fixture, so its prices are stable and drawn over the frame:
# a Japanese menu, a column of 11 prices whose labels must not overlap.
mkdir -p "$work/replay"
cp Fixtures/menus/ja_1.png "$work/replay/"
start_serve "$bin" "$work/home" "$work/serve.log" --replay "$work/replay" --fps 5 --loop --jobs 1
/usr/bin/python3 scripts/browser/test_app.py "$serve_url/" "$PWD/Fixtures" "$shots"
stop_serve

# 2. The phone: HTTPS with a self-signed certificate made on first use, the browser's own camera.
/usr/bin/python3 scripts/browser/make_y4m.py Fixtures/clean/frame_0003.png "$work/camera.y4m" 5
/usr/bin/python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["frame_0003.png"], open(sys.argv[2], "w"))' \
    Fixtures/clean/gt.json "$work/truth.json"
start_serve "$bin" "$work/phone" "$work/tls.log" --tls --no-camera --jobs 1
cert="$work/phone/tls/cert.pem"
case "$serve_url" in https://*) ;; *) echo "test-browser: serve --tls printed $serve_url, not https" >&2; exit 1 ;; esac
# The fingerprint printed is the certificate's, and the certificate names localhost (curl verifies it).
printed="$(grep -o 'SHA-256 fingerprint [0-9A-F:]*' "$work/tls.log" | awk '{print $3}')"
actual="$(openssl x509 -in "$cert" -noout -fingerprint -sha256 | cut -d= -f2)"
[ -n "$printed" ] && [ "$printed" = "$actual" ] || { echo "test-browser: printed fingerprint '$printed' is not the certificate's '$actual'" >&2; exit 1; }
https_url="https://localhost:${serve_url##*:}/"
curl -fsS --cacert "$cert" "${https_url}api/v1/status" >/dev/null
/usr/bin/python3 scripts/browser/test_camera.py "$https_url" "$work/camera.y4m" "$work/truth.json" "$shots" "$cert"
stop_serve
echo "test-browser: PASS"
