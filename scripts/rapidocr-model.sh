#!/usr/bin/env bash
# Fetches one model file out of the PyPI wheel that ships PP-OCRv4's ONNX models
# (rapidocr-onnxruntime 1.4.4, Apache-2.0), checking the wheel's and the file's SHA-256.
# The detector's and the recogniser's installers use it.
#
#   scripts/rapidocr-model.sh MEMBER MEMBER_SHA256 OUT NAME
#
# MEMBER: the file's path in the wheel; OUT: where to write it; NAME: the caller's name for
# its messages. Needs pip (python3-pip). Exits 1, saying why, when PyPI cannot be reached or a
# sum differs (scripts/pypi-wheel.sh fetches and checks the wheel).
set -euo pipefail
member="$1" member_sha="$2" out="$3" name="$4"

wheel_name="rapidocr-onnxruntime==1.4.4"
wheel_file="rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
wheel_sha="971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$(dirname "$0")/pypi-wheel.sh" "$name" "$wheel_name" "$wheel_file" "$wheel_sha" "$member" "$work/member"
got="$(sha256sum "$work/member" | cut -d' ' -f1)"
if [ "$got" != "$member_sha" ]; then
    echo "$name: $member has SHA-256 $got, expected $member_sha; refusing it" >&2
    exit 1
fi
mv "$work/member" "$out"
