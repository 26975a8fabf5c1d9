#!/usr/bin/env bash
# Installs the runtime pricecam runs its text detector and line recogniser with: ONNX Runtime's
# C library (MIT), taken from the PyPI wheel that ships it, checked against its SHA-256.
#
#   scripts/onnxruntime/install.sh [DIR]     (default: models/)
#
# Writes DIR/libonnxruntime.so.1.31.1 and DIR/onnxruntime-LICENSE. Idempotent: when the library
# exists and its stamp (DIR/libonnxruntime.sha256) names the expected wheel, nothing is done.
# scripts/bootstrap.sh runs it; it needs pip (python3-pip), which bootstrap installs.
# pricecam loads the library at run time (dlopen), so building does not need it.
# Provenance and licence: models/README.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${1:-$root/models}"

# The wheel for CPython 3.11 on x86-64 Linux (glibc 2.28 or newer). Only its C library is used,
# which does not depend on Python: the same file is fetched whatever Python the machine has.
version="1.31.1"
wheel_file="onnxruntime-$version-cp311-cp311-manylinux_2_28_x86_64.whl"
wheel_sha="5752bd508126ae7c49894d3b9d2e83f0c3d487319246d04c444b393308d7ad7f"
library="libonnxruntime.so.$version"
member="onnxruntime/capi/$library"
stamp="$wheel_sha $member"

if [ -s "$dir/$library" ] && [ -f "$dir/libonnxruntime.sha256" ] && [ "$(cat "$dir/libonnxruntime.sha256")" = "$stamp" ]; then
    exit 0
fi
if [ "$(uname -m)" != x86_64 ]; then
    echo "onnxruntime: this script installs the x86-64 library; on $(uname -m) add that wheel's name and SHA-256 here" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
PYPI_WHEEL_PLATFORM="--python-version 3.11 --implementation cp --abi cp311 --platform manylinux_2_28_x86_64" \
    "$root/scripts/pypi-wheel.sh" onnxruntime "onnxruntime==$version" "$wheel_file" "$wheel_sha" \
    "$member" "$work/$library" onnxruntime/LICENSE "$work/LICENSE"
mkdir -p "$dir"
# Written beside and renamed, so a cut-off install never leaves half a library; the stamp last.
rm -f "$dir/libonnxruntime.sha256"
cp "$work/LICENSE" "$dir/onnxruntime-LICENSE.tmp"
mv -f "$dir/onnxruntime-LICENSE.tmp" "$dir/onnxruntime-LICENSE"
cp "$work/$library" "$dir/$library.tmp"
mv -f "$dir/$library.tmp" "$dir/$library"
printf '%s\n' "$stamp" >"$dir/libonnxruntime.sha256"
echo "onnxruntime: installed $dir/$library ($(stat -c %s "$dir/$library") bytes)" >&2
