#!/usr/bin/env bash
# Quick start, main job: installs what is missing, builds pricecam (release) and runs it.
#   scripts/run.sh                      -> pricecam batch Fixtures (prices of every bundled fixture)
#   scripts/run.sh scan photo.jpg ...   -> any pricecam command line
set -euo pipefail
source "$(dirname "$0")/env.sh"
# --langs: a traveller reads yen tags or a Thai receipt in its own script (about 8 s to install).
"$ROOT/scripts/bootstrap.sh" --langs
cd "$ROOT"
bin=$(release_pricecam)
if [ $# -eq 0 ]; then
    # Without stored settings, extract only (pricecam setup stores a currency and rate).
    if "$bin" settings >/dev/null 2>&1; then
        set -- batch Fixtures --no-history
    else
        echo "run: no currency settings stored yet (pricecam setup); showing prices unconverted" >&2
        set -- batch Fixtures --no-convert
    fi
fi
exec "$bin" "$@"
