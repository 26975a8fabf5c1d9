#!/usr/bin/env bash
# Fetches one pinned wheel from PyPI, checks its SHA-256, and extracts files from it. The
# model and runtime installers use it (scripts/rapidocr-model.sh, scripts/onnxruntime/install.sh).
#
#   scripts/pypi-wheel.sh NAME SPEC FILE SHA256 MEMBER OUT [MEMBER OUT ...]
#
# NAME: the caller's name for its messages; SPEC: what pip downloads (`pkg==1.2.3`); FILE: the
# wheel's file name; MEMBER: a path in the wheel, written to OUT. A wheel built for one platform
# is asked for with PYPI_WHEEL_PLATFORM set to pip's options for it (`--python-version 3.11
# --implementation cp --abi cp311 --platform manylinux_2_28_x86_64`), so the same file comes
# whatever Python the machine has. Needs pip (python3-pip); installs nothing. Exits 1, saying
# why, when PyPI cannot be reached or the sum differs.
set -euo pipefail
name="$1" spec="$2" wheel_file="$3" wheel_sha="$4"
shift 4

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "$name: fetching $spec from PyPI" >&2
# shellcheck disable=SC2086 # the platform options are words
if ! /usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: ${PYPI_WHEEL_PLATFORM:-} --dest "$work" "$spec" \
    >"$work/pip.log" 2>&1; then
    cat "$work/pip.log" >&2
    echo "$name: could not download $spec from PyPI (is the network to PyPI up?)" >&2
    exit 1
fi
got="$(sha256sum "$work/$wheel_file" | cut -d' ' -f1)"
if [ "$got" != "$wheel_sha" ]; then
    echo "$name: $wheel_file has SHA-256 $got, expected $wheel_sha: not the wheel this project checked; refusing it" >&2
    exit 1
fi
/usr/bin/python3 - "$work/$wheel_file" "$@" <<'PY'
import sys, zipfile
pairs = sys.argv[2:]
with zipfile.ZipFile(sys.argv[1]) as z:
    for member, out in zip(pairs[::2], pairs[1::2]):
        with open(out, "wb") as f:
            f.write(z.read(member))
PY
