#!/usr/bin/env bash
# Live latency on real shop frames: each shelf-jp-dev photo resized to 1280x720 and held for
# a second (30 copies at 30 fps, as a webcam held on a shelf and moved to the next), replayed
# through `pricecam live --source --fps 30` with the default workers. Prints the latency and
# OCR-time percentiles of the run and the issue-26 target (latency p99 <= 400 ms).
#   scripts/bench-live-shelf.sh [SECONDS]   (default 60 s of frames; the photos loop)
# Environment: SHELF (../shared/datasets/shelf-jp-dev), JOBS (default: pricecam's, the cores).
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh" --langs --frames
cd "$ROOT"
bin=$(release_pricecam)
seconds="${1:-60}"
shelf="${SHELF:-$ROOT/../shared/datasets/shelf-jp-dev}"
frames=$(mktemp -d)
trap 'rm -rf "$frames"' EXIT
/usr/bin/python3 - "$(dataset_imgdir "$shelf")" "$frames" <<'PY'
import os, sys
from PIL import Image
src, dst = sys.argv[1], sys.argv[2]
names = sorted(n for n in os.listdir(src) if n.lower().endswith((".jpg", ".jpeg", ".png")))
if not names:
    sys.exit(f"bench-live-shelf: no images in {src}")
k = 0
for n in names:
    im = Image.open(os.path.join(src, n)).convert("L").resize((1280, 720), Image.LANCZOS)
    first = os.path.join(dst, f"{k:05d}.png")
    im.save(first)
    k += 1
    for _ in range(29):  # held for a second at 30 fps
        os.link(first, os.path.join(dst, f"{k:05d}.png"))
        k += 1
print(f"{len(names)} photos as {k} frames of 1280x720", file=sys.stderr)
PY
jobs=()
[ -n "${JOBS:-}" ] && jobs=(--jobs "$JOBS")
"$bin" live --source "$frames" --loop --fps 30 --duration "$seconds" "${jobs[@]}" --currency JPY --rate 1 \
    --format jsonl --no-history 2>"$frames/err.log" >"$frames/out.jsonl" || { cat "$frames/err.log" >&2; exit 1; }
/usr/bin/python3 - "$frames/out.jsonl" <<'PY'
import json, sys
final = None
prices = set()
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("final"):
        final = o
    elif o.get("event") == "price":
        prices.add(o.get("amount"))
if final is None:
    sys.exit("bench-live-shelf: no final stats line")
lat, ocr = final["latency_ms"], final["ocr_ms"]
print(f"frames read {final.get('processed')} dropped {final.get('dropped')}; stable prices seen: {len(prices)}")
print(f"latency ms  p50 {lat['p50']:.0f}  p95 {lat['p95']:.0f}  p99 {lat['p99']:.0f}  (target p99 <= 400)")
print(f"OCR ms      p50 {ocr['p50']:.0f}  p95 {ocr['p95']:.0f}  p99 {ocr['p99']:.0f}")
PY
