#!/usr/bin/env bash
# Live OCR time of three readings side by side in one run: replays the 640x480
# fixture frames through `pricecam live --source` with one worker, alternating
#   pricecam (regions)   the default: text regions found, each read at its scale
#   page (all passes)    the whole-page reading with preprocessing and second pass
#   page (bare)          the whole-page reading alone
# Targets: the region stage's p99 at most +20% over the page reading (issue 12);
# the page reading's passes at most +20% over the bare page (issue 6).
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
    "$bin" live --accuracy "$1" --source "$frames" --fps 4 --loop --frames 120 --jobs 1 \
        --format jsonl --no-convert --no-history 2>/dev/null | grep '"final":true'
}
printf '%-34s %8s %8s %8s\n' setting "p50 ms" "p95 ms" "p99 ms"
: > "$frames/all.txt"
for _ in $(seq "$rounds"); do
    for mode in "" "page-only" "page-only,no-preprocess,no-second-pass"; do
        run "$mode" | python3 -c "
import sys, json
o = json.loads(sys.stdin.read())['ocr_ms']
name = {'': 'pricecam (regions)', 'page-only': 'page (all passes)'}.get('$mode', 'page (bare)')
print(f'{name:<34} {o[\"p50\"]:>8.1f} {o[\"p95\"]:>8.1f} {o[\"p99\"]:>8.1f}')
open('$frames/all.txt', 'a').write(f'{name}\t{o[\"p99\"]}\n')"
    done
done
python3 - "$frames/all.txt" <<'PY'
import sys, statistics
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
def p99(name):
    return statistics.median(float(v) for k, v in rows if k == name)
r, p, b = p99("pricecam (regions)"), p99("page (all passes)"), p99("page (bare)")
print(f"median OCR p99: regions {r:.1f} ms, page {p:.1f} ms, bare page {b:.1f} ms")
print(f"regions vs page: {100 * (r / p - 1):+.1f}% (target <= +20%); page passes vs bare: {100 * (p / b - 1):+.1f}% (target <= +20%)")
PY
