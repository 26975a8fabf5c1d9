#!/usr/bin/env bash
# Installs pricecam's text detector: PP-OCRv4's DB text detector (Apache-2.0), taken
# from the PyPI wheel that ships it and checked; ONNX Runtime runs it as shipped.
#
#   scripts/detector-model/install.sh [DEST]     (default: models/text-detector.onnx)
#
# Idempotent: when DEST exists and its stamp (DEST.sha256) says it is the expected
# model, nothing is done. scripts/bootstrap.sh runs it; it needs pip (python3-pip),
# which bootstrap installs.
# Provenance and licence: models/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dest="${1:-$root/models/text-detector.onnx}"

# In the PyPI wheel rapidocr-onnxruntime==1.4.4 (scripts/rapidocr-model.sh fetches and checks it).
member="rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx"
model_sha="d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9"
# The stamp names the model and that it is installed as shipped (until 2026-11-29 it was
# rewritten for OpenCV 4.6, which ONNX Runtime refuses: such a file is replaced).
stamp="$model_sha as-shipped"

if [ -s "$dest" ] && [ -f "$dest.sha256" ] && [ "$(cat "$dest.sha256")" = "$stamp" ]; then
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/scripts/rapidocr-model.sh" "$member" "$model_sha" "$work/det.onnx" detector-model
mkdir -p "$(dirname "$dest")"
# Written beside and renamed, so a cut-off install never leaves half a model.
cp "$work/det.onnx" "$dest.tmp"
mv -f "$dest.tmp" "$dest"
printf '%s\n' "$stamp" >"$dest.sha256"
echo "detector-model: installed $dest ($(stat -c %s "$dest") bytes)" >&2
