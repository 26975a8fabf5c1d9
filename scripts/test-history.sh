#!/usr/bin/env bash
# Interactive setup on a pseudo-terminal, through the real binary: `setup`
# re-prompts on bad answers and saves, and the first-run gate on a terminal
# runs setup, then the scan. (Everything else about settings and history is in
# Tests/CLITests: SettingsCLITests, HistoryCLITests.)
#   PRICECAM_BIN=path/to/pricecam scripts/test-history.sh   (default: .build/debug/pricecam)
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
BIN="${PRICECAM_BIN:-$ROOT/.build/debug/pricecam}"
IMG="$ROOT/Fixtures/clean/frame_0001.png"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pricecam-history-test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
trap 'echo "test-history: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

echo "-- interactive setup re-prompts, saves and summarises" >&2
export PRICECAM_HOME="$WORK/tty"
python3 - "$BIN" "$ROOT/scripts" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from pty_dialog import run
steps = [(b"Currency the prices are in", b"jp1\r"), (b"letters A-Z only", b"jpy\r"),
         (b"home currency", b"twd\r"), (b"Exchange rate", b"1,000.5\r"), (b"more than one separator", b"0,22\r")]
ok, text, code = run([sys.argv[1], "setup"], steps, until=b"Saved to", linger=(b"TWD\r\n", 5))
if not ok or code != 0 or "Welcome to pricecam" not in text or "1 JPY = 0.22 TWD" not in text:
    sys.exit(text)
PY
grep -q '^rate = "0.22"' "$PRICECAM_HOME/settings.toml"

echo "-- the first-run gate on a terminal runs setup, then the scan" >&2
export PRICECAM_HOME="$WORK/ttygate"
python3 - "$BIN" "$IMG" "$ROOT/scripts" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from pty_dialog import run
steps = [(b"Currency the prices are in", b"eur\r"), (b"home currency", b"\r"), (b"Exchange rate", b"2\r")]
ok, text, code = run([sys.argv[1], "scan", "--no-history", "--format", "jsonl", sys.argv[2]], steps,
                     until=b'"file":', linger=(b"\n__never__", 3), timeout=30)
if not ok or code == 2:
    sys.exit(text)
PY
grep -q '^currency = "EUR"' "$PRICECAM_HOME/settings.toml"
echo "test-history: passed" >&2
