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

# A dataset's image folder: DIR/img when there is one, else DIR itself.
dataset_imgdir() { if [ -d "$1/img" ]; then echo "$1/img"; else echo "$1"; fi; }

# `dataset_dir SET [FILE]`: the absolute path of SET, a folder or a set name in
# ../shared/datasets, holding FILE when one is named (a set's gt.json); exits 2 with a
# message naming SET when there is none.
dataset_dir() {
    local s="$1" need="${2:-}" d
    for d in "$s" "$ROOT/../shared/datasets/$s"; do
        if [ -d "$d" ] && { [ -z "$need" ] || [ -f "$d/$need" ]; }; then (cd "$d" && pwd); return 0; fi
    done
    echo "$(basename "$0"): $s: no folder${need:+ with $need} there nor in ../shared/datasets/$s" >&2
    exit 2
}

# The PNG and JPEG files under folder $1, relative to it, sorted.
list_images() { (cd "$1" && find . -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' \) | sed 's|^\./||' | sort); }

# Self-checks of a checker (scripts/test-*.sh): `expect_problem NAME NEEDLE CMD...` runs CMD,
# which must fail with NEEDLE in its output; counts misses in $failures.
failures=0
expect_problem() {
    local name="$1" needle="$2" out
    shift 2
    if out=$("$@" 2>&1); then
        echo "  FAIL $name: the check passed" >&2; failures=$((failures + 1))
    elif [[ "$out" != *"$needle"* ]]; then
        echo "  FAIL $name: expected '$needle' in: $out" >&2; failures=$((failures + 1))
    else
        echo "  ok   $name" >&2
    fi
}

# The parser's sources for a build of it alone with swiftc (bench-parse.sh, fuzz-parser.sh,
# diff-check.sh), one per line: the Geometry module it uses, when the tree at $1 (default:
# the work tree) has one, and PriceParsing. (PriceParsing imports Geometry only
# `#if canImport(Geometry)`: compiled as one module, Box and TextLine are its own.)
parser_sources() {
    local d="${1:-.}"
    if [ -d "$d/Sources/Geometry" ]; then ls "$d"/Sources/Geometry/*.swift; fi
    ls "$d"/Sources/PriceParsing/*.swift
}

# The debug build's pricecam (PRICECAM_BIN overrides), for the test scripts; exits 2 when not built.
test_pricecam() {
    local bin="${PRICECAM_BIN:-$(swift build --show-bin-path)/pricecam}"
    [ -x "$bin" ] || { echo "$(basename "$0"): $bin is not built (swift build first)" >&2; exit 2; }
    echo "$bin"
}

# `serve_scratch`: sets `work` to a new temporary folder, removed at exit together with
# the server `start_serve` started (if it still runs).
serve_scratch() {
    work="$(mktemp -d)"
    trap serve_cleanup EXIT
}
serve_cleanup() {
    [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
    rm -rf "$work"
}

# `start_serve BIN HOME LOG ARGS...`: starts `BIN serve --port 0 ARGS...` with PRICECAM_HOME=HOME,
# stderr to LOG, and waits for its address: sets serve_pid and serve_url (http[s]://127.0.0.1:PORT).
# `stop_serve` sends SIGTERM and fails (showing LOG) unless it exits 0.
start_serve() {
    local bin="$1" home="$2"
    serve_log="$3"
    shift 3
    PRICECAM_HOME="$home" "$bin" serve --port 0 "$@" 2>"$serve_log" &
    serve_pid=$!
    serve_url=""
    for _ in $(seq 1 600); do
        serve_url="$(grep -o 'https\?://127.0.0.1:[0-9]*' "$serve_log" | head -1 || true)"
        [ -n "$serve_url" ] && return 0
        kill -0 "$serve_pid" 2>/dev/null || break
        sleep 0.1
    done
    cat "$serve_log" >&2
    echo "$(basename "$0"): pricecam serve did not start" >&2
    exit 1
}
stop_serve() {
    local status=0
    kill -TERM "$serve_pid"
    wait "$serve_pid" || status=$?
    serve_pid=""
    [ "$status" -eq 0 ] || { cat "$serve_log" >&2; echo "$(basename "$0"): serve exited $status after SIGTERM" >&2; exit 1; }
}
