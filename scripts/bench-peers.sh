#!/usr/bin/env bash
# Peer benchmark, one run per set: pricecam vs the `tesseract` CLI (psm 6) vs
# two RapidOCRs side by side: 1.4 (rapidocr-onnxruntime, PP-OCRv4) and 3.10
# (rapidocr, PP-OCRv6 small), all through the same price parser
# (`pricecam parse --format jsonl` on each engine's text lines; pricecam itself
# is scored on its own output, which is that parser on its OCR lines).
# Each engine uses the whole machine, as a user would run it: pricecam `batch`
# with one worker per core (its default), the tesseract CLI one process per
# image, as many at once as there are cores (OMP_THREAD_LIMIT=1 for both
# Tesseracts), each RapidOCR as one Python process per core, each process with
# its own engine on one ONNX Runtime thread (intra- and inter-op) and
# OMP_THREAD_LIMIT=1, images handed out one at a time (scripts/peer-ocr.py;
# models loaded once per process).
# Two clocks for the peers: from their models loaded to the last image (the per-image
# columns), and their whole process from start to exit, as pricecam's is timed (Python's
# start, the imports, the models' load: what a user waits for, as pricecam's workers
# making their nets is). The closing table gives pricecam's wall over PP-OCRv6's both
# ways: "from start" compares like with like; "peers loaded" leaves the peers' start out
# and keeps pricecam's in, the stricter figure on small sets.
# Prints per set: total recall, total marked (the price marked total is the total), amount
# precision / recall / F1 (where gt.json
# lists amounts), wall ms per image and CPU ms per image (user + system, all
# threads), then pricecam's time as a share of each RapidOCR's, both ways; at
# the end one line per set with a column per engine (score: total recall T and marked M, or
# amount recall R where gt.json has no totals; wall ms per image) and pricecam's
# wall time / PP-OCRv6's, both clocks.
#   scripts/bench-peers.sh [DIR...]
#   default: every set in ../shared/datasets and every Fixtures/<family>
#   PEERS_ONLY=1: only the two RapidOCRs (no pricecam batch, no tesseract CLI);
#     pricecam still parses and scores their text
#   PRICECAM_BIN=path: that pricecam instead of a release build in $SCRATCH
# A set whose gt.json names the shop's "currency" is read with it, as that shop's
# stored settings would give it: pricecam `batch --currency C --rate 1`, and the
# peers' text through `pricecam parse --currency-hint C`. A set whose entries name
# several (the fixture menus: eleven countries, seven currencies) is each shop's
# settings, not one: each image is read with its entry's own currency (the set's most
# common for an entry without), pricecam by `eval --json` (one run, every entry with
# its own, as `eval` reads a set), the peers' text through the parser with each image's
# hint. Read with the most common one, a yen menu was read with euro settings: the
# Latin model only, and its prices parsed as euros.
# Each RapidOCR goes into a venv of its own, pinned (pip, PyPI only): 1.4 into
# scripts/.cache/venv-rapidocr, 3.10 into scripts/.cache/venv-rapidocr3 with
# onnxruntime beside it (rapidocr 3.10 does not depend on it), the same
# onnxruntime in both; their ONNX models ship inside the wheels, so they run
# offline after the install.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh" --bench --langs   # --langs: a set's gt.json currency picks its script's model (JPY: jpn)
cd "$ROOT"
if [ -n "${PRICECAM_BIN:-}" ]; then bin=$PRICECAM_BIN; else bin=$(release_pricecam "${SCRATCH:-.build-acc}"); fi
peers_only=${PEERS_ONLY:-0}

# pinned VENV NAME==VERSION...: whether VENV's python has exactly these installed.
pinned() {
    [ -x "$1/bin/python" ] || return 1
    "$1/bin/python" - "${@:2}" 2>/dev/null <<'PYEOF0'
import importlib.metadata as m, sys
sys.exit(any(m.version(n) != v for n, v in (a.split("==") for a in sys.argv[1:])))
PYEOF0
}
venv4="$ROOT/scripts/.cache/venv-rapidocr"
if ! pinned "$venv4" rapidocr-onnxruntime==1.4.4 onnxruntime==1.31.1; then
    python3 -m venv "$venv4"
    "$venv4/bin/pip" install -q rapidocr-onnxruntime==1.4.4 onnxruntime==1.31.1 >&2
fi
venv6="$ROOT/scripts/.cache/venv-rapidocr3"
if ! pinned "$venv6" rapidocr==3.10.0 onnxruntime==1.31.1; then
    python3 -m venv "$venv6"
    "$venv6/bin/pip" install -q rapidocr==3.10.0 onnxruntime==1.31.1 >&2
fi
PY=$(command -v python3)

dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
    for f in "$ROOT"/../shared/datasets/*/gt.json; do [ -f "$f" ] && dirs+=("$(dirname "$f")"); done
    for f in Fixtures/*/gt.json; do dirs+=("$(dirname "$f")"); done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The parser's hint for image $1: its own currency ($own, filled per set).
image_hint() { hint=${own[$1]:+--currency-hint ${own[$1]}}; }

# Engine text → pricecam's parser → $3/<image>.jsonl, which `eval --found $3` scores.
parse_lines() { # $1 = image name, $2 = text file, $3 = folder; $hint: --currency-hint C or nothing
    mkdir -p "$(dirname "$3/$1")"
    "$bin" parse --page --format jsonl ${hint:+$hint} < "$2" > "$3/$1.jsonl" 2>/dev/null || :
}

# One table row from `pricecam eval --json` (scores are eval's; this only lays them out).
# Also appends "set, images, engine, score, wall ms, whole process's wall ms" to
# $work/summary for the closing table.
row() { # $1 = set, $2 = images, $3 = engine, $4 = eval JSON, $5 = "wall cpu" ms per image, $6 = wall ms in all, $7 = the whole process's wall ms
    "$PY" - "$@" "$work/summary" <<'PYEOF2'
import json, sys
name, n, engine, summary, times, total_wall, whole, out = sys.argv[1:]
s = json.loads(summary)["sets"][0]
f = lambda x: f"{x:.3f}" if x is not None else "-"
tr = f"{s['total_recall']:.3f} ({s['totals_found']}/{s['totals_expected']})" if s["totals_expected"] else "-"
tm = f"{s['total_marked']:.3f}" if s["totals_expected"] else "-"
wall, cpu = (float(x) for x in times.split())
print(f"{name:<22} {n:>4} | {engine:<9} {tr:<20} {tm:>6} {f(s['amount_precision']):>6} {f(s['amount_recall']):>6} {f(s['amount_f1']):>6} {wall:>8.0f} {cpu:>8.0f}")
score = (f"T {s['total_recall']:.3f} / M {s['total_marked']:.3f}" if s["totals_expected"] else
         f"R {s['amount_recall']:.3f}" if s["amount_recall"] is not None else "-")
with open(out, "a") as o:
    o.write(f"{name}\t{n}\t{engine}\t{score}\t{total_wall}\t{whole}\n")
PYEOF2
}

# The closing table: one line per set, a column per engine, pricecam's wall time / PP-OCRv6's.
summary() {
    "$PY" - "$work/summary" <<'PYEOF3'
import sys
runs, order = {}, []
for line in open(sys.argv[1]):
    name, n, engine, score, wall, whole = line.rstrip("\n").split("\t")
    if name not in runs:
        order.append(name)
    runs.setdefault(name, {"n": int(n)})[engine] = (score, int(wall), int(whole))
engines = ["pricecam", "tesseract", "PP-OCRv4", "PP-OCRv6"]
engines = [e for e in engines if any(e in r for r in runs.values())]
print()
print(f"{'set':<22} {'imgs':>4} | " + " | ".join(f"{e + ' score ms':>19}" for e in engines)
      + " | pricecam/PP-OCRv6 wall: from start, peers loaded")
def ratio(r, k):
    ok = "pricecam" in r and "PP-OCRv6" in r and r["PP-OCRv6"][k] > 0
    return f"{r['pricecam'][k] / r['PP-OCRv6'][k]:.2f}" if ok else "-"
for name in order:
    r = runs[name]
    cells = [f"{r[e][0]:<9} {r[e][1] // r['n']:>9}" if e in r else f"{'-':>19}" for e in engines]
    print(f"{name:<22} {r['n']:>4} | " + " | ".join(cells) + f" | {ratio(r, 2):>10} {ratio(r, 1):>13}")
PYEOF3
}

cores=$(getconf _NPROCESSORS_ONLN)
echo "machine: $cores cores; pricecam --jobs $cores, tesseract CLI $cores processes at once, each RapidOCR $cores processes of one thread"
printf '%-22s %4s | %-9s %-20s %6s %6s %6s %6s %8s %8s\n' set imgs engine total-recall marked amt-P amt-R amt-F1 wall-ms cpu-ms
# Each set's name in the tables: its folder's name, or, when two sets share it (the `blur`
# copies of two dev sets), its parent's too, less the cache's seed suffix (`sroie-dev/blur`).
set_name() { # $1 = set folder
    local base dup=0 d
    base=$(basename "$1")
    for d in "${dirs[@]}"; do [ "$(basename "$d")" = "$base" ] && dup=$((dup + 1)); done
    if [ "$dup" -gt 1 ]; then echo "$(basename "$(dirname "$1")" | sed -E 's/-[0-9]{6,}$//')/$base"; else echo "$base"; fi
}
for dir in "${dirs[@]}"; do
    name=$(set_name "$dir")
    imgdir=$(dataset_imgdir "$dir")
    mapfile -t images < <(list_images "$imgdir")
    n=${#images[@]}
    [ "$n" -gt 0 ] || continue
    # The set's currency: the one its gt.json entries name most often, if any.
    currency=$("$PY" -c 'import json,sys,collections; c=collections.Counter(v.get("currency") for v in json.load(open(sys.argv[1])).values() if isinstance(v,dict) and v.get("currency")); print(c.most_common(1)[0][0] if c else "")' "$dir/gt.json")
    if [ -n "$currency" ]; then convert=(--currency "$currency" --rate 1); else convert=(--no-convert); fi
    # Each image's currency: its entry's, else the set's most common (see the top).
    declare -A own=()
    while IFS=$'\t' read -r image c; do own[$image]=$c; done < <("$PY" -c 'import json, sys
gt = json.load(open(sys.argv[1]))
for image in sys.argv[3:]:
    v = gt.get(image)
    print(image + "\t" + ((v.get("currency") if isinstance(v, dict) else None) or sys.argv[2]))' "$dir/gt.json" "$currency" "${images[@]}")
    mixed=$(printf '%s\n' "${own[@]}" | sort -u | wc -l)

    engines=(pricecam tesseract PP-OCRv4 PP-OCRv6)
    [ "$peers_only" = 1 ] && engines=(PP-OCRv4 PP-OCRv6)
    if [ "$peers_only" != 1 ]; then
        # 1. pricecam, one worker per core; CPU from the shell's `time`
        TIMEFORMAT='%R %U %S'
        if [ "$mixed" -gt 1 ]; then
            { time "$bin" eval "$dir" --jobs "$cores" --json ${currency:+--currency-hint "$currency"} > "$work/pc.json" 2> "$work/pc.err" || true; } 2> "$work/pc.time"
        else
            { time "$bin" batch "$imgdir" --jobs "$cores" --format jsonl "${convert[@]}" --no-history --no-progress > "$work/pc.raw" 2> "$work/pc.err" || true; } 2> "$work/pc.time"
        fi
        # What it said (a missing language model, an unreadable image), each line once, so a
        # score is never read without knowing what the run lacked.
        sort -u "$work/pc.err" | sed "s|^|bench-peers: $name: |" >&2
        awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$work/pc.time" > "$work/pricecam.ms"
        awk '{printf "%d\n", $1 * 1000}' "$work/pc.time" > "$work/pricecam.whole"

        # 2. tesseract CLI, psm 6, one process per image, $cores at once (timed), then the parser (not timed)
        rm -rf "$work/txt"; mkdir -p "$work/txt"
        for i in "${!images[@]}"; do printf '%s\0%s\0' "$imgdir/${images[$i]}" "$work/txt/$i"; done > "$work/tess.args"
        { time xargs -0 -n 2 -P "$cores" sh -c 'tesseract "$0" "$1" --psm 6 >/dev/null 2>&1 || : > "$1.txt"' < "$work/tess.args"; } 2> "$work/tess.time"
        awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$work/tess.time" > "$work/tesseract.ms"
        awk '{printf "%d\n", $1 * 1000}' "$work/tess.time" > "$work/tesseract.whole"
        rm -rf "$work/tesseract"; mkdir -p "$work/tesseract"
        for i in "${!images[@]}"; do image_hint "${images[$i]}"; parse_lines "${images[$i]}" "$work/txt/$i.txt" "$work/tesseract"; done
    fi

    # 3. The two RapidOCRs (scripts/peer-ocr.py: boxes grouped into text rows, same row when
    #    vertical centres overlap, left to right, one line per row; $cores processes of one
    #    thread, timed from all models loaded to the last image, and whole), then the parser
    #    (not timed)
    printf '%s\n' "${images[@]}" > "$work/list"
    for engine in PP-OCRv4 PP-OCRv6; do
        case $engine in PP-OCRv4) rpy=$venv4/bin/python v=v4 ;; PP-OCRv6) rpy=$venv6/bin/python v=v6 ;; esac
        rm -rf "$work/rtxt"; mkdir -p "$work/rtxt"
        TIMEFORMAT='%R'
        { time "$rpy" "$ROOT/scripts/peer-ocr.py" "$v" "$imgdir" "$work/list" "$work/rtxt" "$cores" > "$work/$engine.ms" 2> "$work/$engine.err"; } 2> "$work/$engine.time" \
            || { cat "$work/$engine.err" >&2; exit 1; }
        cat "$work/$engine.err" >&2
        awk '{printf "%d\n", $1 * 1000}' "$work/$engine.time" > "$work/$engine.whole"
        rm -rf "$work/$engine"; mkdir -p "$work/$engine"
        for i in "${!images[@]}"; do image_hint "${images[$i]}"; parse_lines "${images[$i]}" "$work/rtxt/$i.txt" "$work/$engine"; done
    done

    # Scores by `pricecam eval --found` (pricecam's own batch records, the peers' parsed text);
    # pricecam's on a set of several currencies are its own eval's.
    for engine in "${engines[@]}"; do
        src="$work/$engine"; [ "$engine" = pricecam ] && src="$work/pc.raw"
        read -r wall cpu < "$work/$engine.ms"
        if [ "$engine" = pricecam ] && [ "$mixed" -gt 1 ]; then scores=$(cat "$work/pc.json")
        else scores=$("$bin" eval "$dir" --found "$src" --json)
        fi
        row "$name" "$n" "$engine" "$scores" "$((wall / n)) $((cpu / n))" "$wall" "$(cat "$work/$engine.whole")"
    done
    if [ "$peers_only" != 1 ]; then
        read -r pw pc < "$work/pricecam.ms"
        for engine in PP-OCRv4 PP-OCRv6; do
            read -r rw rc < "$work/$engine.ms"
            rs=$(cat "$work/$engine.whole")
            awk -v name="$name" -v n="$n" -v e="$engine" -v pw="$pw" -v pc="$pc" -v rw="$rw" -v rc="$rc" -v rs="$rs" \
                'BEGIN { printf "%-22s %4d | pricecam time / %s time: wall %.2f (%.2f with its start), CPU %.2f\n", name, n, e, pw / rw, pw / rs, pc / rc }'
        done
    fi
done
summary

