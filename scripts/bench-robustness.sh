#!/usr/bin/env bash
# Robustness benchmark: pricecam's main score on each set, clean and on perturbed copies
# of it made by scripts/perturb.py (scale0.5 scale0.35 scale2 rot+4 rot-4 tilt jpeg30 blur
# dim phone shadow blur-phone; same truth), each scored by `pricecam eval --json` (release build). Prints a table,
# set x (clean, each perturbation), each perturbation's score with its difference from clean.
#   scripts/bench-robustness.sh [--md FILE] [--only NAME,NAME] [--keep] [SET...]
#   SET: a folder with gt.json and img/, or a set name in ../shared/datasets;
#        default: tags-jp-dev shelf-jp-dev sroie-dev receipts-de
#   --md FILE          also write the table as Markdown to FILE
#   --only NAME,NAME   only these perturbations (perturb.py's names)
#   --keep             keep the perturbed copies in scripts/.cache/robustness/ (gitignored;
#                      about 3 GB for the default sets) and reuse them while perturb.py, the
#                      set's gt.json and its images are unchanged; default: a temporary folder
#   PRICECAM_BIN=path  score that binary instead of building (SCRATCH: the build's scratch path)
# Main score: total recall when the set's gt.json lists totals, else amount recall (tags-jp-dev,
# sroie-dev, receipts-de: total recall T; shelf-jp-dev: amount recall R).
# Each set is read with its gt.json currency (eval gives each entry its own; --currency-hint
# with the set's most common one covers entries without), as bench-peers.sh does.
# What eval says on stderr (a missing language model, an image over --max-pixels: scale2 of
# sroie-dev's largest scan is 139 Mpx, over the default 100) is shown once per run, so a
# score is never read without knowing what the run lacked.
set -euo pipefail
source "$(dirname "$0")/env.sh"
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }

md="" only="" keep=0 sets=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --md) [ $# -ge 2 ] || { echo "bench-robustness: --md needs a file" >&2; exit 2; }; md="$2"; shift 2 ;;
        --md=*) md="${1#--md=}"; shift ;;
        --only) [ $# -ge 2 ] || { echo "bench-robustness: --only needs NAME,NAME" >&2; exit 2; }; only="$2"; shift 2 ;;
        --only=*) only="${1#--only=}"; shift ;;
        --keep) keep=1; shift ;;
        --) shift; sets+=("$@"); break ;;
        -*) echo "bench-robustness: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) sets+=("$1"); shift ;;
    esac
done
[ -z "$md" ] || md="$(cd "$(dirname "$md")" && pwd)/$(basename "$md")"   # before cd "$ROOT"

# --langs: a set's currency picks its script's model (JPY: jpn); --frames: Pillow for perturb.py
"$ROOT/scripts/bootstrap.sh" --langs --frames
cd "$ROOT"
PY=/usr/bin/python3
perturb="$ROOT/scripts/perturb.py"

# The perturbations, in perturb.py's order (--only checked by perturb.py's own list).
mapfile -t all_perts < <("$PY" -c 'import importlib.util as u, sys
s = u.spec_from_file_location("perturb", sys.argv[1]); m = u.module_from_spec(s); s.loader.exec_module(m)
only = [n.strip() for n in sys.argv[2].split(",") if n.strip()]
bad = [n for n in only if n not in m.NAMES]
if bad: sys.exit("bench-robustness: --only: unknown perturbation " + ", ".join(bad) + "; choose from " + ",".join(m.NAMES))
print("\n".join(n for n in m.NAMES if not only or n in only))' "$perturb" "$only")
[ ${#all_perts[@]} -gt 0 ] || exit 2

dirs=()
[ ${#sets[@]} -gt 0 ] || sets=(tags-jp-dev shelf-jp-dev sroie-dev receipts-de)
for s in "${sets[@]}"; do
    dirs+=("$(dataset_dir "$s" gt.json)")
done

if [ -n "${PRICECAM_BIN:-}" ]; then
    bin="$PRICECAM_BIN"
    [ -x "$bin" ] || { echo "bench-robustness: PRICECAM_BIN=$bin is not an executable" >&2; exit 2; }
else
    bin=$(release_pricecam "${SCRATCH:-.build}")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pricecam-robustness.XXXXXX")
trap 'rm -rf "$work"' EXIT
results="$work/results.tsv"   # set, metric, variant, score ("err" when eval failed), images failed
: > "$results"

for dir in "${dirs[@]}"; do
    name=$(basename "$dir")
    # The set's currency (its gt.json's most common) and main metric (T when it lists totals).
    read -r currency metric < <("$PY" -c 'import json, sys, collections
gt = json.load(open(sys.argv[1]))
c = collections.Counter(v.get("currency") for v in gt.values() if isinstance(v, dict) and v.get("currency"))
t = any(isinstance(v, dict) and v.get("total") is not None for v in gt.values())
print(c.most_common(1)[0][0] if c else "-", "T" if t else "R")' "$dir/gt.json")
    hint=()
    [ "$currency" = - ] || hint=(--currency-hint "$currency")

    # Perturbed copies: reused from the cache when perturb.py, gt.json and the images are as they were.
    if [ "$keep" = 1 ]; then
        key=$( { cat "$perturb" "$dir/gt.json"; (cd "$dir" && find . -type f ! -name gt.json -printf '%P %s %T@\n' | sort); } | cksum | cut -d' ' -f1)
        pdir="$ROOT/scripts/.cache/robustness/$name-$key"
        for old in "$ROOT/scripts/.cache/robustness/$name"-*; do
            [ -d "$old" ] && [ "$old" != "$pdir" ] && rm -rf "$old"
        done
    else
        pdir="$work/$name"
    fi
    missing=()
    for p in "${all_perts[@]}"; do [ -f "$pdir/$p/gt.json" ] || missing+=("$p"); done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "bench-robustness: $name: perturbing (${missing[*]})" >&2
        "$PY" "$perturb" "$dir" "$pdir" --only "$(IFS=,; echo "${missing[*]}")"
    fi

    for variant in clean "${all_perts[@]}"; do
        src="$pdir/$variant"
        [ "$variant" = clean ] && src="$dir"
        echo "bench-robustness: $name: eval $variant" >&2
        if "$bin" eval "$src" --json --misses "${hint[@]}" > "$work/eval.json" 2> "$work/eval.err"; then
            read -r score failed < <("$PY" -c 'import json, sys
s = json.load(open(sys.argv[1]))["sets"][0]
v = s["total_recall"] if sys.argv[2] == "T" else s["amount_recall"]
print("-" if v is None else v, s["failed"])' "$work/eval.json" "$metric")
        else
            score=err failed=0
        fi
        # eval's messages, and of its misses (--misses) only why an image could not be read
        { grep -v ': want \[' "$work/eval.err" || :; sed -n 's/.*: want \[.* error: //p' "$work/eval.err"; } \
            | sort -u | sed "s|^|bench-robustness: $name/$variant: |" >&2
        printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$metric" "$variant" "$score" "$failed" >> "$results"
    done
done

# The table (text on stdout; Markdown to --md FILE).
rev=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
"$PY" - "$results" "$md" "$rev" "$bin" "$(date +%F)" "clean ${all_perts[*]}" <<'PYEOF'
import sys
results, md, rev, binary, day, variants = sys.argv[1:]
variants = variants.split()
rows, metric, failed = {}, {}, {}
for line in open(results):
    s, m, v, score, nfail = line.rstrip("\n").split("\t")
    metric[s] = m
    rows.setdefault(s, {})[v] = score
    failed[s, v] = int(nfail)

def cell(s, v):
    x, c = rows[s].get(v, "-"), rows[s].get("clean", "-")
    note = f", {failed[s, v]} failed" if failed.get((s, v)) else ""
    try:
        x = float(x)
    except ValueError:
        return x + note
    if v == "clean":
        return f"{x:.3f}{note}"
    try:
        return f"{x:.3f} ({x - float(c):+.3f}){note}"
    except ValueError:
        return f"{x:.3f}{note}"

head = ["set (score)"] + variants
body = [[f"{s} ({metric[s]})"] + [cell(s, v) for v in variants] for s in rows]
widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
print(f"pricecam {rev} ({binary}); T = total recall, R = amount recall; (+/-) = difference from clean;"
      " N failed = images eval could not read (see its messages above)")
for r in [head] + body:
    print("  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip())
if md:
    with open(md, "w") as f:
        f.write(f"Robustness: pricecam {rev}, {day}, `scripts/bench-robustness.sh`. "
                "Main score per set (T total recall, R amount recall) on the clean set and on "
                "perturbed copies (`scripts/perturb.py`), difference from clean in brackets; "
                "N failed: images pricecam could not read.\n\n")
        f.write("| " + " | ".join(head) + " |\n")
        f.write("|" + "---|" * len(head) + "\n")
        for r in body:
            f.write("| " + " | ".join(r) + " |\n")
    print(f"bench-robustness: table written to {md}", file=sys.stderr)
PYEOF
