#!/usr/bin/env bash
# Installs pricecam's line recogniser: PP-OCRv4's CRNN text recogniser (Apache-2.0), taken from
# the PyPI wheel that ships it (the detector's wheel), checked, and rewritten for Debian's
# OpenCV 4.6, one graph per input width.
#
#   scripts/recognizer-model/install.sh [DIR]     (default: models/)
#
# Writes DIR/text-recognizer-W.onnx for each width W below and DIR/text-recognizer.json (the
# model's classes). Idempotent: when every file exists and the stamp
# (DIR/text-recognizer.sha256) says they were made from the expected source by this script's
# rewrite, nothing is done. scripts/bootstrap.sh runs it; it needs pip and venv (python3-pip,
# python3-venv), which bootstrap installs. Provenance and licence: models/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${1:-$root/models}"

# In the PyPI wheel rapidocr-onnxruntime==1.4.4 (scripts/rapidocr-model.sh fetches and checks it).
member="rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
model_sha="48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b"
# Input widths (the text is 48 px high): OpenCV 4.6 keeps the shapes of the first input a net
# ran, and onnxsim bakes the width into the graph, so each width is a graph of its own. A line
# is read by the narrowest that holds it at 48 px (320: a word or an amount, 10 ms of CPU per
# 32 px; 640: a short line; 1280: a receipt's total line, keyword to amount).
widths=(320 640 1280)
stamp="$model_sha $(cat "$here/rewrite.py" "$here/requirements.txt" | sha256sum | cut -d' ' -f1) ${widths[*]}"

done_already=1
for w in "${widths[@]}"; do [ -s "$dir/text-recognizer-$w.onnx" ] || done_already=0; done
[ -s "$dir/text-recognizer.json" ] || done_already=0
if [ "$done_already" = 1 ] && [ -f "$dir/text-recognizer.sha256" ] && [ "$(cat "$dir/text-recognizer.sha256")" = "$stamp" ]; then
    exit 0
fi

# The rewriting tools live in a venv of their own under scripts/.cache (not in git), pinned by hash.
venv="$root/scripts/.cache/venv-onnxsim"
if ! "$venv/bin/python" -c 'import onnxsim, onnx' 2>/dev/null; then
    echo "recognizer-model: installing onnxsim into $venv (PyPI, pinned in $here/requirements.txt)" >&2
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv"
    if ! "$venv/bin/pip" install -r "$here/requirements.txt" --require-hashes --only-binary=:all: --quiet \
        --disable-pip-version-check >"$venv.log" 2>&1; then
        cat "$venv.log" >&2
        rm -rf "$venv"
        echo "recognizer-model: could not install onnxsim from PyPI (is the network to PyPI up?)" >&2
        exit 1
    fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/scripts/rapidocr-model.sh" "$member" "$model_sha" "$work/rec.onnx" recognizer-model
for w in "${widths[@]}"; do
    if ! "$venv/bin/onnxsim" "$work/rec.onnx" "$work/sim-$w.onnx" --overwrite-input-shape "x:1,3,48,$w" >"$work/sim.log" 2>&1; then
        cat "$work/sim.log" >&2
        echo "recognizer-model: onnxsim failed on the recogniser at width $w" >&2
        exit 1
    fi
    "$venv/bin/python" "$here/rewrite.py" "$work/sim-$w.onnx" "$work/text-recognizer-$w.onnx" "$work/text-recognizer.json"
done
mkdir -p "$dir"
# Written beside and renamed, so a cut-off install never leaves half a model; the stamp last.
rm -f "$dir/text-recognizer.sha256"
for f in "${widths[@]/#/text-recognizer-}"; do
    cp "$work/$f.onnx" "$dir/$f.onnx.tmp"
    mv -f "$dir/$f.onnx.tmp" "$dir/$f.onnx"
done
cp "$work/text-recognizer.json" "$dir/text-recognizer.json.tmp"
mv -f "$dir/text-recognizer.json.tmp" "$dir/text-recognizer.json"
printf '%s\n' "$stamp" >"$dir/text-recognizer.sha256"
echo "recognizer-model: installed $dir/text-recognizer-{$(IFS=,; echo "${widths[*]}")}.onnx and text-recognizer.json" >&2
