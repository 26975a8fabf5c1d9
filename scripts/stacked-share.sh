#!/usr/bin/env bash
# How pricecam tells a document from a scene, image by image: the detector's lines (regions of
# `PageReader.documentLineGlyphs` glyphs or more), the share of them standing in stacks
# (`RegionLayout.stackedShare`), the longest column, and the reading chosen. A page is read as a
# document when it has 16+ lines and a stacked share of at least 0.5 (`PageReader.choose`), or
# by the column rule. Reproduces the distribution in docs/benchmarks/2026-11-29-stacked-lines.md.
#   scripts/stacked-share.sh SET...
#   SET: a folder of images (its img/ when it has one), or a set name in ../shared/datasets
#   PRICECAM_BIN=path  use that binary instead of building (SCRATCH: the build's scratch path)
# Prints one tab-separated row per image (set, image, lines, stacked share, column, reading),
# then per set: the least share of the images with 16+ lines read as pages, and the most of
# every image read otherwise. Each image is read whole (`pricecam scan`, the debug log on), so
# a set costs what reading it costs, one image at a time.
set -euo pipefail
source "$(dirname "$0")/env.sh"
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }

sets=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --) shift; sets+=("$@"); break ;;
        -*) echo "stacked-share: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) sets+=("$1"); shift ;;
    esac
done
[ ${#sets[@]} -gt 0 ] || { echo "stacked-share: name a set (see --help)" >&2; exit 2; }

# The base install: `scan --no-convert` reads with English only, and the choice printed
# depends only on the detector's boxes, not on the language read.
"$ROOT/scripts/bootstrap.sh"
dirs=()
for s in "${sets[@]}"; do
    dirs+=("$(dataset_dir "$s")")
done
if [ -n "${PRICECAM_BIN:-}" ]; then
    bin="$PRICECAM_BIN"
    [ -x "$bin" ] || { echo "stacked-share: PRICECAM_BIN=$bin is not an executable" >&2; exit 2; }
else
    bin=$(cd "$ROOT" && release_pricecam "${SCRATCH:-.build}")
fi

log=$(mktemp "${TMPDIR:-/tmp}/pricecam-stacked.XXXXXX")
trap 'rm -f "$log" "$log.rows"' EXIT
printf 'set\timage\tlines\tstacked\tcolumn\treading\n'
for dir in "${dirs[@]}"; do
    name=$(basename "$dir")
    img=$(dataset_imgdir "$dir")
    rows=0
    while IFS= read -r file; do
        # The reading's currency does not change the choice: --no-convert reads without settings.
        if ! PRICECAM_DEBUG=1 "$bin" scan "$img/$file" --no-convert > /dev/null 2> "$log"; then
            echo "stacked-share: $img/$file: pricecam scan failed: $(grep -av '^ ' "$log" | tail -1)" >&2
            continue
        fi
        # `column (lines: N, span: S) of H lines L regions R stacked X in T ms -> MODE`
        line=$(grep -a '^column ' "$log" | tail -1)
        [ -n "$line" ] || { echo "stacked-share: $img/$file: no layout line in the debug log" >&2; continue; }
        printf '%s\t%s\t%s\n' "$name" "$file" "$(echo "$line" | sed -E \
            's/^column \(lines: ([0-9]+), span: ([0-9]+)\) of ([0-9]+) lines ([0-9]+) regions [0-9]+ stacked ([0-9.]+) in .* -> (.*)$/\4\t\5\t\1 lines over \2 of \3 px\t\6/')"
        rows=$((rows + 1))
    done < <(list_images "$img")
    [ "$rows" -gt 0 ] || echo "stacked-share: $img: no image read" >&2
done | tee "$log.rows"
awk -F'\t' '{
        if ($6 == "page" && $3 >= 16) { if (!($1 in doc) || $4 < doc[$1]) doc[$1] = $4 }
        else if ($6 != "page") { if (!($1 in scene) || $4 > scene[$1]) scene[$1] = $4 }
        seen[$1] = 1
    }
    END {
        for (s in seen) printf "%s: documents with 16+ lines, least share %s; other images, most share %s\n",
            s, (s in doc) ? doc[s] : "-", (s in scene) ? scene[s] : "-"
    }' "$log.rows" >&2
