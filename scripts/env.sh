# Sourced by the other scripts: toolchain on PATH, one OpenMP thread per process.
# shellcheck shell=bash
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
# libgomp reads this at load time; Tesseract is 6x slower on 2 cores without it.
export OMP_THREAD_LIMIT=1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT

# Builds pricecam in release mode (scratch path $1, default .build; build log on
# stderr) and prints the binary's path.
release_pricecam() {
    local scratch="${1:-.build}"
    swift build -c release --product pricecam --scratch-path "$scratch" >&2
    echo "$(swift build -c release --scratch-path "$scratch" --show-bin-path)/pricecam"
}
