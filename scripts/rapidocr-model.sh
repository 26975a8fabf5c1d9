#!/usr/bin/env bash
# Fetches model files out of the PyPI wheel that ships PP-OCRv4's ONNX models
# (rapidocr-onnxruntime 1.4.4, Apache-2.0), checking the wheel's and each file's SHA-256.
# The detector's and the recogniser's installers use it.
#
#   scripts/rapidocr-model.sh MEMBER MEMBER_SHA256 OUT NAME [MEMBER MEMBER_SHA256 OUT ...]
#
# MEMBER: a file's path in the wheel; OUT: where to write it; NAME: the caller's name for
# its messages. The wheel is downloaded once for all members. Needs pip (python3-pip). Exits 1,
# saying why, when PyPI cannot be reached or a sum differs (scripts/pypi-wheel.sh fetches and
# checks the wheel); then no OUT is written.
set -euo pipefail
name="$4"
members=("$1" "$2" "$3")
shift 4
if [ $(($# % 3)) -ne 0 ]; then
    echo "$name: rapidocr-model.sh: members come as MEMBER SHA256 OUT triples" >&2
    exit 2
fi
members+=("$@")

wheel_name="rapidocr-onnxruntime==1.4.4"
wheel_file="rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
wheel_sha="971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pairs=()
for ((i = 0; i < ${#members[@]}; i += 3)); do
    pairs+=("${members[i]}" "$work/member$i")
done
"$(dirname "$0")/pypi-wheel.sh" "$name" "$wheel_name" "$wheel_file" "$wheel_sha" "${pairs[@]}"
for ((i = 0; i < ${#members[@]}; i += 3)); do
    got="$(sha256sum "$work/member$i" | cut -d' ' -f1)"
    if [ "$got" != "${members[i + 1]}" ]; then
        echo "$name: ${members[i]} has SHA-256 $got, expected ${members[i + 1]}; refusing it" >&2
        exit 1
    fi
done
for ((i = 0; i < ${#members[@]}; i += 3)); do
    mv "$work/member$i" "${members[i + 2]}"
done
