#!/usr/bin/env bash
# Robustness regression: the debug build's `pricecam eval` on perturbed copies of a small
# sample (scripts/perturb.py) must keep each case's main score (total recall where the set's
# gt.json lists totals, else amount recall) at or above its floor in FLOORS below.
# The whole benchmark, every set and perturbation: scripts/bench-robustness.sh.
# Prints one line per case, then "N passed, N failed"; exits 1 when any case fails.
#   scripts/test-robustness.sh        (PRICECAM_BIN=path: score that binary instead)
set -euo pipefail
source "$(dirname "$0")/env.sh"

# Floors, one per (set, perturbation; "clean" = the unperturbed sample): set from a measured
# run minus a margin (so that run-to-run noise passes and a real loss fails); a new case
# starts from its own measured score the same way.
# Measured 2026-11-25 (learned detector): tags-jp-dev clean 0.959, scale0.5 0.959, scale0.35
# 0.755, scale2 0.939, rot+4 0.959, rot-4 0.980, tilt 0.918, jpeg30 0.980, blur 0.959, dim 0.980;
# receipts-de 1.0 (2/2) on each. Tags floors are 0.03 under clean (issue 26: each perturbed
# copy within 0.03 of its clean score), except the two copies that are not yet there, whose
# floors are 0.03 under what they read (a 110 px tag at 0.35 is 38 px: its digits 10 px
# tall); the two receipts must both keep their totals, in perspective too (tilt: read by their
# boxes in rows since 2026-11-25; read as a page, receipts-de tilt lost 4 of 26 totals).
# sroie-dev's first 14 scans, read as pages (2026-11-25, evening): clean 1.0, scale0.5 0.929,
# scale0.35 0.857 with small text read enlarged (`AccuracyOptions.pageGlyph`; without it 0.857
# and 0.571); floors 0.03–0.04 under those. Blurred: 0.714 with blurred pages unsharp masked
# (`AccuracyOptions.blurredEdge`; 0.429 without).
# 2026-11-27 (afternoon), with PP-OCRv4's recogniser as the total vote's second reader: the
# sroie-dev sample reads scale0.5 1.0, scale0.35 0.929, blur 0.857 (were 0.929, 0.857, 0.714);
# their floors one image (0.071) under that, less a hair for rounding.
# receipts-de phone (a phone's photo on a table, Exif orientation 6): 1.0 (2/2) since
# 2026-11-27, when a long receipt is cut out of its table (`PageReader.documentShare`); before,
# aldi 00883 was read with the table's grain and lost its total.
# 2026-11-29, a short scene region in which Tesseract found no price read by the line
# recogniser too (`PageReader.recognized`): tags-jp-dev blur 1.0, scale0.35 0.816 (0.755
# before), phone 0.959 (0.918 before the small-text detection); floors one tag (0.020) under,
# less a hair.
# shelf-jp-dev's first two photos (21 prices), 2026-11-29: clean 1.0; at 0.35 (672 × 378, the
# digits 8 px) 0.952 since a scene whose text the detector sees small is detected again
# enlarged (`PageReader.smallTextRegions`; before, no price: the network found no box). Floors
# one price (0.048) under each, less a hair.
# 2026-11-29 (later), the recogniser's sure reading over an unsure price too: tags-jp-dev
# clean 0.980, scale0.5 0.980, scale0.35 0.878, scale2 0.959, rot+4 0.959, rot-4 0.980, tilt
# 0.980, jpeg30 0.980, blur 1.0, dim 0.980, phone 0.959. Floors 0.03 under clean (0.95) where
# a copy reads as clean does, else one tag (0.020) under what it reads, less a hair.
# shelf-jp-dev's sample at 0.35 reads 1.0 with it (0.952 before): its floor one price under.
# 2026-12-01, a tiny crop enlarged until its shorter side is 256 px (`TextDetector.minShortSide`,
# before at most 4×) and print under the price model's size shown to the recogniser first:
# tags-jp-dev scale0.35 0.980 (0.878 before), scale0.5 1.0; the 0.35 floor now 0.03 under clean.
# 2026-12-01 (later), an unsure scene worked on downscaled detected again at its own size
# (`PageReader.unsureSceneScale`): shelf-jp-dev's sample blurred 0.381 (0.095 before: the network
# found few boxes at 1 600 px); its floor one price (0.048) under, less a hair.
# 2026-12-04, a cast shadow's sharp edge across each tag (`shadow`): tags-jp-dev 0.878 with a
# crop's uneven paper evened out before Tesseract reads it and the detector's boxes measured
# on their evened ground (`RegionReader.flattenShadows`; 0.755 before); floor one tag under,
# less a hair.
# 2026-12-06, a scene's short box read as letters at almost no confidence shown to the line
# recogniser before it is called text, as a document's is (`AccuracyOptions.sceneShortLetters`):
# tags-jp-dev shadow 0.939 (0.898 without: `99` read `SS |`, `35` read `で`); floor one tag
# under, less a hair.
# 2026-12-06 (later), a VAT table whose rows add up checks the total
# (`ReceiptArithmetic.checkTaxTable`): receipts-de's `real_15042020_04_01946`, whose `SUMME
# 19,46` and card line both read `19,16` dim, at half size and at twice the size (its table's
# `7,55 + 1,44 = 8,99` and `9,79 + 0,68 = 10,47` read right), joins the sample; the sample
# reads 1.0 (3/3) on each, 0.667 on dim and 2x without the table's check.
# 2026-12-06 (evening), a leaning line's glyphs measured on its box turned upright
# (`TextDetector.leaningHeight`): the keystone-tilted `real_15042020_04_01946` reads its lines
# better but its `SUMME EUR 19,46` as `19,16` again (receipts-de/tilt 25/26, every other
# copy of the set as before: docs/benchmarks/2026-12-06-leaning-glyphs.md); its tilt floor
# is 2/3: the first two receipts must still keep their totals in perspective.
# 2026-12-07, a blurred document read by its rows with both readers (`blurredRows`,
# docs/benchmarks/2026-12-07-blurred-rows.md): sroie-dev's sample takes two receipts whose
# totals only the rows read blurred (262, 550); it reads 0.9375 (15/16) blurred, 0.8125 on the
# build before, and its blur floor is one image under, less a hair (0.78 before); the 16
# read 1.0 clean and 0.9375 at 0.5 and 0.35. receipts-de's blurred sample joins at 2/3 (its
# first two receipts keep their totals; `real_15042020_04_01946`'s `19,46` is not read blurred).
# Later that day blurred print on a page that looks sharp at 960 px (`blurredPrint`,
# docs/benchmarks/2026-12-07-blurred-print.md) gave the sample's `027` its total: blurred
# 1.0 (16/16, 0.9375 on the build before); its floor one image under, less a hair. Then the
# detector's input sharpened twice as much (docs/benchmarks/2026-12-07-detector-sharpening.md)
# traded `262`'s total for `307`'s (not in the sample): 0.9375; receipts-de's blurred sample
# reads 3/3 (`19,46` found), its floor still one receipt under.
# 2026-12-07 (evening), a blurred receipt photographed on a table (`blur-phone`: two
# perturbations at once; its whole photo's edges look sharp) is detected again sharpened by its
# print's spread (`PageReader.printBlurredRegions`,
# docs/benchmarks/2026-12-07-print-blurred-detection.md): the set receipts-de 0.885 (0.769
# before), sroie-dev 0.873 (the same); the samples read as before the change: receipts-de's 2/3
# (its first two receipts keep their totals, `19,46` not read), sroie-dev's 14/16 (`027` and
# `262` missed). Floors: one receipt under on receipts-de as for its blurred copy, one image
# under less a hair on sroie-dev.
FLOORS=(
    "tags-jp-dev  clean     0.95"
    "tags-jp-dev  scale0.5  0.95"
    "tags-jp-dev  scale0.35 0.95"
    "tags-jp-dev  scale2    0.93"
    "tags-jp-dev  rot+4     0.93"
    "tags-jp-dev  rot-4     0.95"
    "tags-jp-dev  tilt      0.95"
    "tags-jp-dev  jpeg30    0.95"
    "tags-jp-dev  blur      0.97"
    "tags-jp-dev  dim       0.95"
    "tags-jp-dev  phone     0.93"
    "tags-jp-dev  shadow    0.91"
    "receipts-de  clean     1.0"
    "receipts-de  scale0.5  1.0"
    "receipts-de  jpeg30    1.0"
    "receipts-de  tilt      0.66"
    "receipts-de  phone     1.0"
    "receipts-de  dim       1.0"
    "receipts-de  scale2    1.0"
    "receipts-de  blur      0.66"
    "receipts-de  blur-phone 0.66"
    "sroie-dev    clean     0.93"
    "sroie-dev    scale0.5  0.92"
    "sroie-dev    scale0.35 0.85"
    "sroie-dev    blur      0.93"
    "sroie-dev    blur-phone 0.81"
    "shelf-jp-dev clean     0.95"
    "shelf-jp-dev scale0.35 0.95"
    "shelf-jp-dev blur      0.33"
)
# The sample, to bound CI time: per set in ../shared/datasets, "all" its images or the first
# N by sorted name (gt.json key), then any images named after a `+` (comma-separated keys).
SAMPLES=(
    "tags-jp-dev  all"
    "receipts-de  2+real_15042020_04_01946.jpg"
    "sroie-dev    14+262.jpg,550.jpg"
    "shelf-jp-dev 2"
)

# --langs: the sets' currencies pick their script's model (JPY: jpn); --frames: Pillow for perturb.py
"$ROOT/scripts/bootstrap.sh" --langs --frames
cd "$ROOT"
bin=$(test_pricecam)
PY=/usr/bin/python3
datasets="$ROOT/../shared/datasets"

work=$(mktemp -d "${TMPDIR:-/tmp}/pricecam-test-robustness.XXXXXX")
trap 'rm -rf "$work"' EXIT

passed=0 failed=0
fail() { echo "FAIL $1" >&2; failed=$((failed + 1)); }

for sample in "${SAMPLES[@]}"; do
    read -r dset count <<< "$sample"
    src="$datasets/$dset"
    [ -f "$src/gt.json" ] || { fail "$dset: no $src/gt.json"; continue; }
    perts=()
    for row in "${FLOORS[@]}"; do
        read -r s p _ <<< "$row"
        [ "$s" = "$dset" ] && [ "$p" != clean ] && perts+=("$p")
    done

    # The sample set: gt.json cut to the first $count keys, img/ of links to the set's images.
    clean="$work/$dset/clean"
    mkdir -p "$clean/img"
    read -r currency metric < <("$PY" -c 'import json, os, sys, collections
src, out, count = sys.argv[1:]
gt = json.load(open(os.path.join(src, "gt.json")))
count, _, named = count.partition("+")
keys = sorted(gt) if count == "all" else sorted(gt)[:int(count)]
missing = [k for k in named.split(",") if k and k not in gt]
if missing:
    sys.exit("%s/gt.json has no %s (named in SAMPLES of scripts/test-robustness.sh)" % (src, " ".join(missing)))
keys += [k for k in named.split(",") if k and k not in keys]
imgdir = os.path.join(src, "img") if os.path.isdir(os.path.join(src, "img")) else src
for k in keys:
    os.makedirs(os.path.dirname(os.path.join(out, "img", k)), exist_ok=True)
    os.symlink(os.path.abspath(os.path.join(imgdir, k)), os.path.join(out, "img", k))
json.dump({k: gt[k] for k in keys}, open(os.path.join(out, "gt.json"), "w"), indent=1, ensure_ascii=False)
c = collections.Counter(gt[k].get("currency") for k in keys if gt[k].get("currency"))
print(c.most_common(1)[0][0] if c else "-", "T" if any(gt[k].get("total") is not None for k in keys) else "R")' \
        "$src" "$clean" "$count")
    hint=()
    [ "$currency" = - ] || hint=(--currency-hint "$currency")
    if [ ${#perts[@]} -gt 0 ]; then
        "$PY" "$ROOT/scripts/perturb.py" "$clean" "$work/$dset" --only "$(IFS=,; echo "${perts[*]}")" 2> "$work/perturb.err" \
            || { cat "$work/perturb.err" >&2; fail "$dset: perturb.py failed"; continue; }
    fi

    for row in "${FLOORS[@]}"; do
        read -r s p floor <<< "$row"
        [ "$s" = "$dset" ] || continue
        case_name="$dset/$p"
        if ! "$bin" eval "$work/$dset/$p" --json --misses "${hint[@]}" > "$work/eval.json" 2> "$work/eval.err"; then
            sed 's/^/    /' "$work/eval.err" >&2
            fail "$case_name: pricecam eval failed"
            continue
        fi
        # eval's messages, and of its misses (--misses) only why an image could not be read
        { grep -v ': want \[' "$work/eval.err" || :; sed -n 's/.*: want \[.* error: //p' "$work/eval.err"; } \
            | sort -u | sed 's/^/    eval: /' >&2
        read -r images label score < <("$PY" -c 'import json, sys
s = json.load(open(sys.argv[1]))["sets"][0]
v = s["total_recall"] if sys.argv[2] == "T" else s["amount_recall"]
print(s["images"], "total-recall" if sys.argv[2] == "T" else "amount-recall", "-" if v is None else v)' "$work/eval.json" "$metric")
        case_name="$dset/$p ($images images)"
        if [ "$score" = - ]; then
            fail "$case_name: eval gave no $label"
        elif awk -v s="$score" -v f="$floor" 'BEGIN { exit !(s + 0 >= f + 0) }'; then
            echo "ok   $case_name: $label $score >= floor $floor" >&2
            passed=$((passed + 1))
        else
            fail "$case_name: $label $score < floor $floor"
        fi
    done
done

echo "test-robustness: $passed passed, $failed failed" >&2
[ "$failed" -eq 0 ]
