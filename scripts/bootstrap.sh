#!/usr/bin/env bash
# Installs, idempotently and non-interactively, the Debian packages pricecam needs
# that are missing, and checks the Swift toolchain. Quick when all is present.
#
#   scripts/bootstrap.sh            build + run: Tesseract, Leptonica, libv4l2, English data
#   scripts/bootstrap.sh --test     + what the tests need
#   scripts/bootstrap.sh --bench    + the tesseract CLI (the benchmarks' peer) and python3-venv (RapidOCR)
#   scripts/bootstrap.sh --v4l2     + QEMU, a kernel with vivid, v4l-utils (the V4L2 end-to-end test)
#   scripts/bootstrap.sh --fixtures + Pillow and fonts (regenerating Fixtures/)
set -euo pipefail

packages=(libtesseract-dev libleptonica-dev libv4l-dev tesseract-ocr-eng pkg-config)
for arg in "$@"; do
    case "$arg" in
        --test) packages+=(tesseract-ocr) ;;
        --bench) packages+=(tesseract-ocr python3-venv) ;;
        --v4l2) packages+=(qemu-system-x86 linux-image-amd64 busybox-static v4l-utils python3-venv) ;;
        --fixtures) packages+=(python3-pil fonts-dejavu-core fonts-liberation fonts-noto-cjk) ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bootstrap: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing+=("$p")
done
# De-duplicate while keeping order.
if [ ${#missing[@]} -gt 0 ]; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
fi

if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
        echo "bootstrap: run as root:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        echo "bootstrap: (or: sudo $0 $*)" >&2
        exit 1
    fi
    echo "bootstrap: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Refresh the package lists only when they are missing or older than a day.
    if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n 1)" ]; then
        apt-get update -qq
    fi
    if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
fi

# The Swift toolchain is not a Debian package; it is expected at /opt/swift or on PATH.
if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "bootstrap: note: swift is at /opt/swift/usr/bin (the scripts add it to PATH)" >&2
    else
        echo "bootstrap: no Swift toolchain found: install Swift 6.1 or newer (https://swift.org/install) and put it on PATH" >&2
        exit 1
    fi
fi
exit 0
