#!/usr/bin/env bash
# Same input, same output: reads a sample of images twice with the debug build, once alone and
# once beside two busy processes (one per core), and fails when any price differs (the "ms"
# timings are left out of the comparison). Receipts go through the page reading and its second
# pass, whose budgets count work, never time; shelf photos and tags through the text detector
# and the region re-reads; the Fixtures through both.
#   scripts/test-determinism.sh
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/bootstrap.sh" --langs
cd "$ROOT"
bin=$(test_pricecam)
work=$(mktemp -d)
burners=()
cleanup() {
    for p in "${burners[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
datasets="$ROOT/../shared/datasets"

# The sample: a few images of each kind, linked into one folder per currency.
sample() {  # sample NAME DIR COUNT
    mkdir -p "$work/$1"
    local dir n=0
    dir=$(dataset_imgdir "$2")
    while read -r f; do
        ln -s "$dir/$f" "$work/$1/$(echo "$f" | tr / _)"
        n=$((n + 1))
        [ "$n" -ge "$3" ] && break
    done < <(list_images "$dir")
}
sample fixtures "$ROOT/Fixtures/shadow" 6
sample fixtures-noise "$ROOT/Fixtures/noise" 6
if [ -d "$datasets/sroie-dev" ]; then
    sample myr "$datasets/sroie-dev" 4
    sample jpy "$datasets/shelf-jp-dev" 2
    sample jpy-tags "$datasets/tags-jp-dev" 10
elif [ "${CI:-}" = true ]; then
    echo "test-determinism: $datasets is missing (CI needs ../shared beside the clone)" >&2
    exit 1
fi

read_all() {  # read_all OUT
    : > "$1"
    for d in "$work"/*/; do
        local name currency=()
        name=$(basename "$d")
        case "$name" in myr) currency=(--currency MYR --rate 1) ;; jpy*) currency=(--currency JPY --rate 1) ;; *) currency=(--no-convert) ;; esac
        "$bin" batch "$d" "${currency[@]}" --no-history --format jsonl --jobs 2 2>>"$work/err.log" \
            | /usr/bin/python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    o.pop("ms", None)
    print(json.dumps(o, sort_keys=True))' >> "$1"
    done
}

echo "test-determinism: reading $(find "$work" -mindepth 2 -name '*.*' | wc -l) images alone" >&2
read_all "$work/alone.jsonl"
for _ in 1 2; do
    /usr/bin/python3 -c 'while True: pass' &
    burners+=($!)
done
echo "test-determinism: reading them again beside two busy processes" >&2
read_all "$work/busy.jsonl"

passed=0 failed=0
if [ ! -s "$work/alone.jsonl" ]; then
    echo "  FAIL nothing was read" >&2; cat "$work/err.log" >&2; failed=1
elif diff -u "$work/alone.jsonl" "$work/busy.jsonl" > "$work/diff.txt"; then
    echo "  ok   $(wc -l < "$work/alone.jsonl") images read the same alone and on a busy machine" >&2
    passed=1
else
    echo "  FAIL the readings differ on a busy machine:" >&2
    head -40 "$work/diff.txt" >&2
    failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
