#!/usr/bin/env bash
# Installs pricecam's line recogniser: PP-OCRv4's CRNN text recogniser and PP-OCR's text-direction
# classifier (both Apache-2.0), taken from the PyPI wheel that ships them (the detector's wheel)
# and checked; ONNX Runtime runs them as shipped (the recogniser at any input width).
#
#   scripts/recognizer-model/install.sh [DIR]     (default: models/)
#
# Writes DIR/text-recognizer.onnx, DIR/text-recognizer.json (the model's classes) and
# DIR/text-direction.onnx. Idempotent: when all three exist and the stamp (DIR/text-recognizer.sha256) names the expected model and this
# script's class list, nothing is done. scripts/bootstrap.sh runs it; it needs pip and Debian's
# python3-onnx, which bootstrap installs. Provenance and licence: models/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${1:-$root/models}"

# In the PyPI wheel rapidocr-onnxruntime==1.4.4 (scripts/rapidocr-model.sh fetches and checks it).
member="rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
model_sha="48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b"
direction_member="rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"
direction_sha="e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c"
stamp="$model_sha $direction_sha as-shipped $(sha256sum "$here/classes.py" | cut -d' ' -f1)"

if [ -s "$dir/text-recognizer.onnx" ] && [ -s "$dir/text-recognizer.json" ] && [ -s "$dir/text-direction.onnx" ] \
    && [ -f "$dir/text-recognizer.sha256" ] \
    && [ "$(cat "$dir/text-recognizer.sha256")" = "$stamp" ]; then
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/scripts/rapidocr-model.sh" "$member" "$model_sha" "$work/rec.onnx" recognizer-model \
    "$direction_member" "$direction_sha" "$work/direction.onnx"
/usr/bin/python3 "$here/classes.py" "$work/rec.onnx" "$work/text-recognizer.json"
mkdir -p "$dir"
# Written beside and renamed, so a cut-off install never leaves half a model; the stamp last.
rm -f "$dir/text-recognizer.sha256"
# The graphs of one width each that OpenCV 4.6 needed (until 2026-11-29), if any.
rm -f "$dir"/text-recognizer-{320,640,1280}.onnx
cp "$work/rec.onnx" "$dir/text-recognizer.onnx.tmp"
mv -f "$dir/text-recognizer.onnx.tmp" "$dir/text-recognizer.onnx"
cp "$work/text-recognizer.json" "$dir/text-recognizer.json.tmp"
mv -f "$dir/text-recognizer.json.tmp" "$dir/text-recognizer.json"
cp "$work/direction.onnx" "$dir/text-direction.onnx.tmp"
mv -f "$dir/text-direction.onnx.tmp" "$dir/text-direction.onnx"
printf '%s\n' "$stamp" >"$dir/text-recognizer.sha256"
echo "recognizer-model: installed $dir/text-recognizer.onnx, text-recognizer.json and text-direction.onnx" >&2
