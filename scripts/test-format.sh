#!/usr/bin/env bash
# The tree is formatted as .swift-format says (swift-format, shipped with the toolchain):
# `swift format lint --strict` on every Swift file, then a check that the lint can fail
# (a copy of one file with its layout broken). To fix: swift format format -i -r Sources Tests Package.swift
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
if ! swift format lint --strict --recursive Sources Tests Package.swift; then
    echo "test-format: not formatted; run: swift format format -i -r Sources Tests Package.swift" >&2
    exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pricecam-format.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp .swift-format "$work/"
printf 'let  a = [1,2]\nfunc f( ) {return}\n' > "$work/Bad.swift"
if (cd "$work" && swift format lint --strict Bad.swift) >/dev/null 2>&1; then
    echo "test-format: the lint passed a misformatted file" >&2
    exit 1
fi
echo "test-format: every Swift file is formatted; the lint fails on a misformatted one" >&2
