#!/usr/bin/env bash
# Reproduces models/price.traineddata: Tesseract's LSTM fine-tuned to read price text
# as a camera sees it (see models/README.md for what it is, its sources and licence).
#
#   scripts/price-model/train.sh [--lines N] [--iterations N] [--work DIR] [--base FILE] [--output FILE]
#
# Steps: fetch the float French model of tesseract-ocr/tessdata_best (Apache-2.0; the
# only float Latin-script model reachable from here, and French's character set holds
# the digits, separators and $ € £ prices need), checked against its SHA-256; render
# N lines of degraded price text (render_lines.py) plus 300 held-out ones; make
# Tesseract's training files from them; fine-tune; write the model, as integers (the
# form Debian's own models take: faster, a third of the size), to models/.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/bootstrap.sh --train

lines=16000 iterations=16000 work=${TMPDIR:-/tmp}/pricecam-price-model base="" output=models/price.traineddata
while [ $# -gt 0 ]; do
    case "$1" in
        --lines) lines=$2; shift 2 ;;
        --iterations) iterations=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --base) base=$2; shift 2 ;;
        --output) output=$2; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "train.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done

BASE_URL=https://github.com/tesseract-ocr/tessdata_best/raw/e12c65a915945e4c28e237a9b52bc4a8f39a0cec/fra.traineddata
BASE_SHA256=907743d98915c91a3906dfbf6e48b97598346698fe53aaa797e1a064ffcac913
export OMP_THREAD_LIMIT=1

mkdir -p "$work"
if [ -z "$base" ]; then
    base=$work/fra.traineddata
    [ -s "$base" ] || curl -fsSL -o "$base" "$BASE_URL" || {
        echo "train.sh: could not download $BASE_URL; pass --base FILE (tessdata_best's fra.traineddata)" >&2; exit 1; }
fi
echo "$BASE_SHA256  $base" | sha256sum -c --quiet - || {
    echo "train.sh: $base is not tessdata_best's fra.traineddata (SHA-256 differs)" >&2; exit 1; }

# The starting point without French's word lists: a price is no dictionary word.
rm -rf "$work/base" && mkdir -p "$work/base"
combine_tessdata -u "$base" "$work/base/fra." >/dev/null 2>&1
rm -f "$work"/base/fra.lstm-*-dawg
combine_tessdata "$work/base/fra." >/dev/null 2>&1

echo "train.sh: rendering $lines training lines and 300 held-out lines" >&2
rm -rf "$work/train" "$work/eval"
/usr/bin/python3 scripts/price-model/render_lines.py "$work/train" "$lines" 1
/usr/bin/python3 scripts/price-model/render_lines.py "$work/eval" 300 2
for set in train eval; do
    find "$work/$set" -name '*.png' | sort | sed 's/\.png$//' \
        | xargs -P "$(nproc --all)" -I{} tesseract {}.png {} --psm 13 lstm.train >/dev/null 2>&1
    find "$work/$set" -name '*.lstmf' | sort > "$work/$set.list"
    echo "train.sh: $set: $(wc -l < "$work/$set.list") line files" >&2
done

rm -rf "$work/out" && mkdir -p "$work/out"
lstmtraining --continue_from "$work/base/fra.lstm" --traineddata "$work/base/fra.traineddata" \
    --train_listfile "$work/train.list" --eval_listfile "$work/eval.list" \
    --model_output "$work/out/price" --max_iterations "$iterations" \
    --learning_rate 0.0001 --target_error_rate 0.005 2>&1 | grep -E "^At iteration|Finished|best" | tail -n 40

lstmtraining --stop_training --continue_from "$work/out/price_checkpoint" \
    --traineddata "$work/base/fra.traineddata" --model_output "$work/price-float.traineddata"
lstmtraining --stop_training --convert_to_int --continue_from "$work/out/price_checkpoint" \
    --traineddata "$work/base/fra.traineddata" --model_output "$output"
echo "train.sh: held-out character error, base model then the new one:" >&2
lstmeval --model "$work/base/fra.traineddata" --eval_listfile "$work/eval.list" 2>&1 | tail -n 1
lstmeval --model "$output" --eval_listfile "$work/eval.list" 2>&1 | tail -n 1
sha256sum "$output"
