#!/usr/bin/env bash
# Live OCR time with and without the accuracy passes (preprocessing, second
# pass), side by side in one run: replays the 640x480 fixture frames through
# `pricecam live --source` with one worker, alternating the two settings.
# Issue 6's target: OCR-time p99 grows by at most 20% from the added passes.
#   scripts/bench-live-ocr.sh [ROUNDS]   (default 3 rounds of 120 frames each)
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh"
cd "$ROOT"
bin=$(release_pricecam)
rounds="${1:-3}"
frames=$(mktemp -d)
trap 'rm -rf "$frames"' EXIT
for f in Fixtures/*/frame_*.png; do
    size=$(python3 -c "import struct,sys;d=open(sys.argv[1],'rb').read(24);print('%dx%d'%struct.unpack('>II',d[16:24]))" "$f")
    [ "$size" = 640x480 ] && cp "$f" "$frames/$(echo "$f" | tr / _)"
done
echo "$(ls "$frames" | wc -l) frames of 640x480; $rounds rounds x 120 frames per setting, 1 worker"
run() {
    PRICECAM_ACCURACY="$1" "$bin" live --source "$frames" --fps 4 --loop --frames 120 --jobs 1 \
        --format jsonl --no-convert --no-history 2>/dev/null | grep '"final":true'
}
printf '%-34s %8s %8s %8s\n' setting "p50 ms" "p95 ms" "p99 ms"
: > "$frames/all.txt"
for _ in $(seq "$rounds"); do
    for mode in "" "no-preprocess,no-second-pass"; do
        run "$mode" | python3 -c "
import sys, json
o = json.loads(sys.stdin.read())['ocr_ms']
name = '${mode:-pricecam (all passes)}'
print(f'{name:<34} {o[\"p50\"]:>8.1f} {o[\"p95\"]:>8.1f} {o[\"p99\"]:>8.1f}')
open('$frames/all.txt', 'a').write(f'{name}\t{o[\"p99\"]}\n')"
    done
done
python3 - "$frames/all.txt" <<'PY'
import sys, statistics
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
on = [float(v) for k, v in rows if k.startswith("pricecam")]
off = [float(v) for k, v in rows if not k.startswith("pricecam")]
a, b = statistics.median(on), statistics.median(off)
print(f"median OCR p99: {a:.1f} ms with the passes, {b:.1f} ms without: {100 * (a / b - 1):+.1f}% (target <= +20%)")
PY
