#!/usr/bin/env bash
# Every script installs what it uses: runs scripts/check-script-deps.py on
# scripts/, then shows that the check can fail, on copies of scripts/ with one
# known gap each (a caller that runs make-frames.py without --frames, as
# test-v4l2.sh once did; a module no option promises; an option that does not exist).
set -euo pipefail
source "$(dirname "$0")/env.sh"
check="$ROOT/scripts/check-script-deps.py"
/usr/bin/python3 "$check" "$ROOT/scripts"

work=$(mktemp -d "${TMPDIR:-/tmp}/pricecam-deps.XXXXXX")
trap 'rm -rf "$work"' EXIT
fresh_copy() { rm -rf "$work/s"; cp -r "$ROOT/scripts" "$work/s"; rm -rf "$work/s/.cache"; }

fresh_copy
printf '#!/bin/sh\nscripts/bootstrap.sh --v4l2\n/usr/bin/python3 scripts/v4l2/make-frames.py out\n' > "$work/s/test-gap.sh"
expect_problem "a caller of make-frames.py without --frames" "imports Python module 'PIL'" /usr/bin/python3 "$check" "$work/s"

fresh_copy
printf '#!/usr/bin/python3\nimport numpy\n' > "$work/s/gap.py"
expect_problem "a module no option promises" "imports Python module 'numpy'" /usr/bin/python3 "$check" "$work/s"

fresh_copy
printf '#!/bin/sh\nscripts/bootstrap.sh --nope\n' > "$work/s/gap.sh"
expect_problem "an option bootstrap does not have" "no such option" /usr/bin/python3 "$check" "$work/s"

fresh_copy
printf '#!/bin/sh\nscripts/bootstrap.sh\nv4l2-ctl --list-devices\n' > "$work/s/gap.sh"
expect_problem "a command only --v4l2 provides" "uses cmd 'v4l2-ctl'" /usr/bin/python3 "$check" "$work/s"

[ "$failures" = 0 ] || { echo "test-script-deps: $failures self-checks failed" >&2; exit 1; }
echo "test-script-deps: every script's needs are installed by its own bootstrap options; the check fails on each known gap" >&2
