#!/usr/bin/env bash
# Side-by-side benchmark, one run: pricecam batch vs a `tesseract` CLI loop
# (+ the same price parser, via `pricecam parse`) on the same folders.
# Prints ms per image for both and their ratio, total recall for both, and
# pricecam's throughput at --jobs 1 and --jobs 2.
#   scripts/bench.sh [DIR...]   (default: Fixtures/clean and ../shared/datasets/receipts-de when present)
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh" --bench
cd "$ROOT"
bin=$(release_pricecam)
PY=$(command -v python3)

dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
    dirs=(Fixtures/clean)
    [ -d "$ROOT/../shared/datasets/receipts-de" ] && dirs+=("$ROOT/../shared/datasets/receipts-de")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
printf '%-28s %6s | %-22s %9s | %-22s %9s | %6s\n' set images "pricecam total-recall" "ms/img" "tesseract-CLI recall" "ms/img" ratio
for dir in "${dirs[@]}"; do
    name=$(basename "$dir")
    imgdir=$(dataset_imgdir "$dir")
    mapfile -t images < <(list_images "$imgdir")
    n=${#images[@]}
    [ "$n" -gt 0 ] || continue

    # pricecam, all cores (its default)
    t0=$(now)
    "$bin" batch "$imgdir" --format jsonl --no-convert --no-history --no-progress > "$work/pc.jsonl" 2>/dev/null || true
    t1=$(now)
    # tesseract CLI loop, one process per image as a user would script it (only this is timed)
    mkdir -p "$work/txt"
    t2=$(now)
    for i in "${!images[@]}"; do
        tesseract "$imgdir/${images[$i]}" "$work/txt/$i" --psm 6 >/dev/null 2>&1 || : > "$work/txt/$i.txt"
    done
    t3=$(now)
    # ... then the same price parser on its text, one <image>.jsonl each for `eval --found`
    rm -rf "$work/cli"
    for i in "${!images[@]}"; do
        mkdir -p "$(dirname "$work/cli/${images[$i]}")"
        "$bin" parse --page --format jsonl < "$work/txt/$i.txt" > "$work/cli/${images[$i]}.jsonl" || :
    done
    # Scores by `pricecam eval --found`; this only lays them out.
    "$PY" - "$name" "$n" "$t0" "$t1" "$t2" "$t3" "$("$bin" eval "$dir" --found "$work/pc.jsonl" --json)" "$("$bin" eval "$dir" --found "$work/cli" --json)" <<'PYEOF'
import json, sys
name, n, t0, t1, t2, t3, pc, cli = sys.argv[1:]
n = int(n)
pms = (float(t1) - float(t0)) * 1000 / n
cms = (float(t3) - float(t2)) * 1000 / n
def recall(summary):
    s = json.loads(summary)["sets"][0]
    return (f"{s['total_recall']:.3f} ({s['totals_found']}/{s['totals_expected']}) M {s['total_marked']:.2f}"
            if s["totals_expected"] else "-")
print(f"{name:<28} {n:>6} | {recall(pc):<22} {pms:>9.1f} | {recall(cli):<22} {cms:>9.1f} | {cms/pms:>5.2f}x")
PYEOF
done

echo
echo "pricecam throughput by workers (same folders):"
for dir in "${dirs[@]}"; do
    imgdir="$dir"; [ -d "$dir/img" ] && imgdir="$dir/img"
    declare -A rate=()
    for jobs in 1 2; do
        t0=$(now)
        "$bin" batch "$imgdir" --jobs "$jobs" --format jsonl --no-convert --no-history --no-progress > "$work/j.jsonl" 2>/dev/null || true
        t1=$(now)
        n=$(wc -l < "$work/j.jsonl")
        rate[$jobs]=$("$PY" -c "print(f'{$n/($t1-$t0):.2f}')")
    done
    "$PY" -c "print(f'  {\"$(basename "$dir")\":<28} jobs=1 {${rate[1]}:>7.2f} img/s   jobs=2 {${rate[2]}:>7.2f} img/s   speed-up {${rate[2]}/${rate[1]}:.2f}x')"
done
