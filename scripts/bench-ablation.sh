#!/usr/bin/env bash
# What each accuracy step costs and gains: `pricecam eval` with every step on,
# then with one step off at a time (eval --accuracy, see docs/ARCHITECTURE.md,
# "Accuracy"), on the fixture families and (when present) receipts-de.
# Prints amount recall per family (receipts-de: total recall) and CPU ms per
# image (user + system of the whole run / images), one row per setting.
#   scripts/bench-ablation.sh [SETTING...]
#   default settings: all on, then no-preprocess, no-background-norm,
#   no-stretch, no-deskew, no-downscale, no-second-pass, no-word-reread, no-sparse-word, no-sparse
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh"
cd "$ROOT"
bin=$(release_pricecam "${SCRATCH:-.build-acc}")
settings=("$@")
[ ${#settings[@]} -gt 0 ] || settings=("" no-preprocess no-background-norm no-stretch no-deskew no-downscale no-second-pass no-word-reread no-sparse-word no-sparse)
sets=(Fixtures)
receipts="$ROOT/../shared/datasets/receipts-de"
[ -f "$receipts/gt.json" ] && sets+=("$receipts")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TIMEFORMAT='%U %S'
for s in "${settings[@]}"; do
    for d in "${sets[@]}"; do
        n=$(basename "$d")
        { time "$bin" eval "$d" --accuracy "$s" --json --jobs 1 > "$work/$n.json"; } 2> "$work/$n.time"
    done
    python3 - "$work" "${s:-all on}" "${sets[@]}" <<'PY'
import json, sys, os
work, name, sets = sys.argv[1], sys.argv[2], sys.argv[3:]
cols, cpu = [], []
for d in sets:
    n = os.path.basename(d)
    o = json.load(open(f"{work}/{n}.json"))
    u, s = map(float, open(f"{work}/{n}.time").read().split())
    images = next(x["images"] for x in o["sets"] if x["set"] == "all")
    cpu.append(f"{n} {1000 * (u + s) / images:.0f}")
    for x in o["sets"]:
        if x["set"] == "all" or x["set"] == "negatives":
            continue
        v = x["total_recall"] if n == "receipts-de" else x["amount_recall"]
        cols.append((x["set"], v))
if not os.path.exists(f"{work}/header"):
    open(f"{work}/header", "w").close()
    print(f"{'setting':<20} " + " ".join(f"{k[:11]:>11}" for k, _ in cols) + "   CPU ms/img")
print(f"{name:<20} " + " ".join(f"{v:>11.3f}" if v is not None else f"{'-':>11}" for _, v in cols) + "   " + ", ".join(cpu))
PY
done
