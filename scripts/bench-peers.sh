#!/usr/bin/env bash
# Peer benchmark, one run per set: pricecam vs the `tesseract` CLI (psm 6) vs
# RapidOCR (PP-OCRv4 ONNX), all three through the same price parser
# (`pricecam parse --format jsonl` on each engine's text lines; pricecam itself
# is scored on its own output, which is that parser on its OCR lines).
# Each engine uses the whole machine, as a user would run it: pricecam `batch`
# with one worker per core (its default), the tesseract CLI one process per
# image, as many at once as there are cores (OMP_THREAD_LIMIT=1 for both
# Tesseracts), RapidOCR in one Python process whose ONNX runtime spreads each
# image over every core (models loaded once and not timed).
# Prints per set: total recall, amount precision / recall / F1 (where gt.json
# lists amounts), wall ms per image and CPU ms per image (user + system, all
# threads), then pricecam's time as a share of RapidOCR's, both ways.
#   scripts/bench-peers.sh [DIR...]
#   default: every set in ../shared/datasets and every Fixtures/<family>
# A set whose gt.json names the shop's "currency" is read with it, as that shop's
# stored settings would give it: pricecam `batch --currency C --rate 1`, and the
# peers' text through `pricecam parse --currency-hint C`.
# RapidOCR goes into scripts/.cache/venv-rapidocr (pip, PyPI only); its ONNX
# models ship inside the wheel, so it runs offline after the install.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh" --bench --langs   # --langs: a set's gt.json currency picks its script's model (JPY: jpn)
cd "$ROOT"
bin=$(release_pricecam "${SCRATCH:-.build-acc}")

venv="$ROOT/scripts/.cache/venv-rapidocr"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import rapidocr_onnxruntime' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q rapidocr-onnxruntime >&2
fi
RPY="$venv/bin/python"
PY=$(command -v python3)

dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
    for f in "$ROOT"/../shared/datasets/*/gt.json; do [ -f "$f" ] && dirs+=("$(dirname "$f")"); done
    for f in Fixtures/*/gt.json; do dirs+=("$(dirname "$f")"); done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Engine text → pricecam's parser → $3/<image>.jsonl, which `eval --found $3` scores.
parse_lines() { # $1 = image name, $2 = text file, $3 = folder; $hint: --currency-hint C or nothing
    mkdir -p "$(dirname "$3/$1")"
    "$bin" parse --format jsonl ${hint:+$hint} < "$2" > "$3/$1.jsonl" 2>/dev/null || :
}

# One table row from `pricecam eval --json` (scores are eval's; this only lays them out).
row() { # $1 = set, $2 = images, $3 = engine, $4 = eval JSON, $5 = "wall cpu" ms per image
    "$PY" - "$@" <<'PYEOF2'
import json, sys
name, n, engine, summary, times = sys.argv[1:]
s = json.loads(summary)["sets"][0]
f = lambda x: f"{x:.3f}" if x is not None else "-"
tr = f"{s['total_recall']:.3f} ({s['totals_found']}/{s['totals_expected']})" if s["totals_expected"] else "-"
wall, cpu = (float(x) for x in times.split())
print(f"{name:<16} {n:>4} | {engine:<9} {tr:<20} {f(s['amount_precision']):>6} {f(s['amount_recall']):>6} {f(s['amount_f1']):>6} {wall:>8.0f} {cpu:>8.0f}")
PYEOF2
}

cores=$(getconf _NPROCESSORS_ONLN)
echo "machine: $cores cores; pricecam --jobs $cores, tesseract CLI $cores processes at once, RapidOCR on all cores"
printf '%-16s %4s | %-9s %-20s %6s %6s %6s %8s %8s\n' set imgs engine total-recall amt-P amt-R amt-F1 wall-ms cpu-ms
for dir in "${dirs[@]}"; do
    name=$(basename "$dir")
    imgdir=$(dataset_imgdir "$dir")
    mapfile -t images < <(list_images "$imgdir")
    n=${#images[@]}
    [ "$n" -gt 0 ] || continue
    # The set's currency: the one its gt.json entries name most often, if any.
    currency=$("$PY" -c 'import json,sys,collections; c=collections.Counter(v.get("currency") for v in json.load(open(sys.argv[1])).values() if isinstance(v,dict) and v.get("currency")); print(c.most_common(1)[0][0] if c else "")' "$dir/gt.json")
    hint=${currency:+--currency-hint $currency}
    if [ -n "$currency" ]; then convert=(--currency "$currency" --rate 1); else convert=(--no-convert); fi

    # 1. pricecam, one worker per core; CPU from the shell's `time`
    TIMEFORMAT='%R %U %S'
    { time "$bin" batch "$imgdir" --jobs "$cores" --format jsonl "${convert[@]}" --no-history --no-progress > "$work/pc.raw" 2> "$work/pc.err" || true; } 2> "$work/pc.time"
    # What it said (a missing language model, an unreadable image), each line once, so a
    # score is never read without knowing what the run lacked.
    sort -u "$work/pc.err" | sed "s|^|bench-peers: $name: |" >&2
    awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$work/pc.time" > "$work/pricecam.ms"

    # 2. tesseract CLI, psm 6, one process per image, $cores at once (timed), then the parser (not timed)
    rm -rf "$work/txt"; mkdir -p "$work/txt"
    for i in "${!images[@]}"; do printf '%s\0%s\0' "$imgdir/${images[$i]}" "$work/txt/$i"; done > "$work/tess.args"
    { time xargs -0 -n 2 -P "$cores" sh -c 'tesseract "$0" "$1" --psm 6 >/dev/null 2>&1 || : > "$1.txt"' < "$work/tess.args"; } 2> "$work/tess.time"
    awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$work/tess.time" > "$work/tesseract.ms"
    rm -rf "$work/tesseract"; mkdir -p "$work/tesseract"
    for i in "${!images[@]}"; do parse_lines "${images[$i]}" "$work/txt/$i.txt" "$work/tesseract"; done

    # 3. RapidOCR: boxes grouped into text rows (same row when vertical centres
    #    overlap), left to right, one line per row; recognition timed per image.
    rm -rf "$work/rtxt"; mkdir -p "$work/rtxt"
    printf '%s\n' "${images[@]}" > "$work/list"
    "$RPY" - "$imgdir" "$work/list" "$work/rtxt" > "$work/rapidocr.ms" <<'PYEOF'
import sys, time, os
from rapidocr_onnxruntime import RapidOCR
imgdir, listfile, out = sys.argv[1:]
engine = RapidOCR()
total = cpu = 0.0
for i, name in enumerate(open(listfile).read().split("\n")):
    if not name: continue
    t, c = time.perf_counter(), time.process_time()
    try:
        result, _ = engine(os.path.join(imgdir, name))
    except Exception as e:  # one unreadable image is scored as read empty, as pricecam's is
        print(f"bench-peers: rapidocr: {name}: {e}", file=sys.stderr)
        result = None
    total += time.perf_counter() - t
    cpu += time.process_time() - c
    boxes = []
    for box, text, score in (result or []):
        ys = [p[1] for p in box]; xs = [p[0] for p in box]
        boxes.append((min(ys), max(ys), min(xs), text))
    boxes.sort()
    rows = []
    for top, bottom, left, text in boxes:
        mid = (top + bottom) / 2
        for row in rows:
            if row["top"] <= mid <= row["bottom"]:
                row["items"].append((left, text)); break
        else:
            rows.append({"top": top, "bottom": bottom, "items": [(left, text)]})
    with open(os.path.join(out, f"{i}.txt"), "w") as f:
        for row in rows:
            f.write(" ".join(t for _, t in sorted(row["items"])) + "\n")
print(int(total * 1000), int(cpu * 1000))
PYEOF
    rm -rf "$work/rapidocr"; mkdir -p "$work/rapidocr"
    for i in "${!images[@]}"; do parse_lines "${images[$i]}" "$work/rtxt/$i.txt" "$work/rapidocr"; done

    # Scores by `pricecam eval --found` (pricecam's own batch records, the peers' parsed text).
    for engine in pricecam tesseract rapidocr; do
        src="$work/$engine"; [ "$engine" = pricecam ] && src="$work/pc.raw"
        read -r wall cpu < "$work/$engine.ms"
        row "$name" "$n" "$engine" "$("$bin" eval "$dir" --found "$src" --json)" "$((wall / n)) $((cpu / n))"
    done
    read -r pw pc < "$work/pricecam.ms"; read -r rw rc < "$work/rapidocr.ms"
    awk -v name="$name" -v n="$n" -v pw="$pw" -v pc="$pc" -v rw="$rw" -v rc="$rc" \
        'BEGIN { printf "%-16s %4d | pricecam time / RapidOCR time: wall %.2f, CPU %.2f\n", name, n, pw / rw, pc / rc }'

done
