#!/usr/bin/env bash
# Uploads and camera frames cannot take the server down: mutated images (PNG, JPEG,
# GIF, TIFF, WebP, BMP; cut short, bit-flipped, huge header sizes, spliced) through
# POST /api/v1/scan and the browser camera stream of one `pricecam serve`: no crash,
# no hang, no 5xx, memory back to its level (scripts/serve_fuzz.py says how).
# CI runs 300 mutations (each twice); the full run: FUZZ_IMAGES=2000 scripts/test-serve-fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/bootstrap.sh --browser --frames

bin="$(test_pricecam)"
serve_scratch

start_serve "$bin" "$work/home" "$work/serve.log" --no-camera --jobs 1
curl -fsS -X PUT -H 'Content-Type: application/json' -d '{"currency": "JPY", "rate": "0.0061", "home": "EUR"}' \
    "$serve_url/api/v1/settings" >/dev/null
/usr/bin/python3 scripts/serve_fuzz.py "$serve_url/" "$serve_pid" Fixtures/clean/frame_0003.png "${FUZZ_IMAGES:-300}" \
    --seed "${FUZZ_SEED:-1}" || { tail -n 40 "$work/serve.log" >&2; exit 1; }
stop_serve
echo "test-serve-fuzz: PASS"
