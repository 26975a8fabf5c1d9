#!/usr/bin/env bash
# Fetches one model file out of the PyPI wheel that ships PP-OCRv4's ONNX models
# (rapidocr-onnxruntime 1.4.4, Apache-2.0), checking the wheel's and the file's SHA-256.
# The detector's and the recogniser's installers use it.
#
#   scripts/rapidocr-model.sh MEMBER MEMBER_SHA256 OUT NAME
#
# MEMBER: the file's path in the wheel; OUT: where to write it; NAME: the caller's name for
# its messages. Needs pip (python3-pip). Exits 1, saying why, when PyPI cannot be reached or a
# sum differs.
set -euo pipefail
member="$1" member_sha="$2" out="$3" name="$4"

wheel_name="rapidocr-onnxruntime==1.4.4"
wheel_file="rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
wheel_sha="971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "$name: fetching $wheel_name from PyPI" >&2
# Debian's pip (python3-pip); only downloads, installs nothing.
if ! /usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" "$wheel_name" >"$work/pip.log" 2>&1; then
    cat "$work/pip.log" >&2
    echo "$name: could not download $wheel_name from PyPI (is the network to PyPI up?)" >&2
    exit 1
fi
got="$(sha256sum "$work/$wheel_file" | cut -d' ' -f1)"
if [ "$got" != "$wheel_sha" ]; then
    echo "$name: $wheel_file has SHA-256 $got, expected $wheel_sha: not the wheel this project checked; refusing it" >&2
    exit 1
fi
/usr/bin/python3 - "$work/$wheel_file" "$member" "$work/member" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[3], "wb") as out:
    out.write(z.read(sys.argv[2]))
PY
got="$(sha256sum "$work/member" | cut -d' ' -f1)"
if [ "$got" != "$member_sha" ]; then
    echo "$name: $member has SHA-256 $got, expected $member_sha; refusing it" >&2
    exit 1
fi
mv "$work/member" "$out"
