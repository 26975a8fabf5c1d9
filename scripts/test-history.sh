#!/usr/bin/env bash
# Settings, first-run gate, history: the cases that need the real binary and
# real processes (interactive setup on a pseudo-terminal, kill -9 during
# appends, two writers at once, unusable database locations).
#   PRICECAM_BIN=path/to/pricecam scripts/test-history.sh   (default: .build/debug/pricecam)
set -uo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
BIN="${PRICECAM_BIN:-$ROOT/.build/debug/pricecam}"
[ -x "$BIN" ] || { echo "test-history: $BIN not built (swift build first, or set PRICECAM_BIN)" >&2; exit 1; }
IMG="$(find "$ROOT/Fixtures" -name '*.png' | sort | head -1)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pricecam-history-test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
failures=0
pass() { echo "  ok   $1" >&2; }
fail() { echo "  FAIL $1" >&2; failures=$((failures + 1)); }
fresh() { export PRICECAM_HOME="$WORK/home-$1"; rm -rf "$PRICECAM_HOME"; }
# run CMD...: sets $code, $out, $err
run() { "$@" >"$WORK/out" 2>"$WORK/err" </dev/null; code=$?; out="$(cat "$WORK/out")"; err="$(cat "$WORK/err")"; }
expect_code() { # name expected
    if [ "$code" = "$2" ]; then pass "$1"; else fail "$1 (exit $code, expected $2; stderr: $err)"; fi
}
contains() { # name haystack needle
    case "$2" in *"$3"*) pass "$1" ;; *) fail "$1 (missing '$3' in: $2)" ;; esac
}

echo "-- setup validation (flags)" >&2
fresh setup
run "$BIN" setup --currency jpy --rate 0,22 --home twd; expect_code "setup jpy 0,22 twd" 0
run "$BIN" settings --json; expect_code "settings --json" 0
contains "stored upper-cased, 0,22 as 0.22" "$out" '"currency":"JPY","rate":"0.22","home":"TWD"'
for r in 0.0001 10000 0,5; do
    run "$BIN" setup --currency EUR --rate "$r"; expect_code "rate $r accepted" 0
done
for r in 0.00009 10000.0001 1,000.5 1e3 NaN ∞ "" -1 0 "1.2.3"; do
    run "$BIN" setup --currency EUR --rate "$r"; expect_code "rate '$r' rejected" 2
done
run "$BIN" setup --currency EUR --rate 0.00009; contains "range message" "$err" "between 0.0001 and 10000 inclusive"
run "$BIN" setup --currency EUR --rate 1,000.5; contains "two-separator message" "$err" "more than one separator"
run "$BIN" setup --currency "$(printf 'A%.0s' {1..20})" --rate 1; expect_code "20-letter code accepted" 0
run "$BIN" setup --currency "$(printf 'A%.0s' {1..21})" --rate 1; expect_code "21-letter code rejected" 2
contains "length message" "$err" "at most 20 letters"
run "$BIN" setup --currency J1 --rate 1; expect_code "non-letter code rejected" 2
run "$BIN" setup --currency EUR --rate 1 --home 'T W'; expect_code "bad home rejected" 2
run "$BIN" setup; expect_code "setup without flags off a terminal" 2
contains "setup names the flags" "$err" "pricecam setup --currency"

echo "-- settings set" >&2
fresh set
run "$BIN" settings set --rate 1; expect_code "set before setup" 2
run "$BIN" setup --currency JPY --rate 0.22 >/dev/null
before="$(cat "$PRICECAM_HOME/settings.toml")"
run "$BIN" settings set --rate 0.00009; expect_code "set rejects out-of-range rate" 2
[ "$(cat "$PRICECAM_HOME/settings.toml")" = "$before" ] && pass "rejected set leaves file unchanged" || fail "rejected set changed the file"
run "$BIN" settings set --rate 0,25 --home usd --max-rate-age-days 7; expect_code "set rate/home/age" 0
run "$BIN" settings --json
contains "set stored" "$out" '"currency":"JPY","rate":"0.25","home":"USD"'
contains "max age stored" "$out" '"max_rate_age_days":7'
run "$BIN" settings set --clear-home; run "$BIN" settings show --json
contains "home cleared" "$out" '"home":null'

echo "-- corrupt settings file" >&2
fresh corrupt
mkdir -p "$PRICECAM_HOME"
printf 'currency = "JPY"\nrate = "lots"\nupdated_at = "2025-01-01T00:00:00Z"\n' >"$PRICECAM_HOME/settings.toml"
cp "$PRICECAM_HOME/settings.toml" "$WORK/corrupt.orig"
run "$BIN" settings; expect_code "corrupt file: settings exits 2" 2
contains "error names the file" "$err" "$PRICECAM_HOME/settings.toml"
contains "error names the problem" "$err" 'line 2: rate "lots" is not a plain decimal number'
contains "error gives the fix" "$err" "fix: "
run "$BIN" setup --currency EUR --rate 1; expect_code "setup refuses to overwrite a corrupt file" 2
run "$BIN" settings set --rate 1; expect_code "set refuses a corrupt file" 2
if [ -n "$IMG" ]; then
    run "$BIN" scan "$IMG"; expect_code "scan with corrupt settings exits 2" 2
fi
cmp -s "$PRICECAM_HOME/settings.toml" "$WORK/corrupt.orig" && pass "corrupt file never overwritten" || fail "corrupt file was changed"
run "$BIN" setup --force --currency EUR --rate 1; expect_code "setup --force replaces it" 0

echo "-- first-run gate" >&2
if [ -n "$IMG" ]; then
    fresh gate
    run "$BIN" scan "$IMG"; expect_code "scan without settings, no TTY: exit 2" 2
    contains "gate prints the setup command" "$err" "pricecam setup --currency JPY --rate 0.22"
    [ ! -e "$PRICECAM_HOME/settings.toml" ] && pass "gate stores nothing" || fail "gate created settings"
    run "$BIN" batch "$(dirname "$IMG")"; expect_code "batch without settings: exit 2" 2
    run "$BIN" live --source "$(dirname "$IMG")" --frames 1; expect_code "live without settings: exit 2" 2
    run "$BIN" scan --no-convert "$IMG"
    [ "$code" != 2 ] && pass "--no-convert runs without settings (exit $code)" || fail "--no-convert blocked by the gate: $err"
    run "$BIN" scan --format jsonl --currency JPY --rate 0.22 --home TWD --no-history "$IMG"
    [ "$code" != 2 ] && pass "--currency/--rate run without settings (exit $code)" || fail "--currency/--rate blocked: $err"
    [ ! -e "$PRICECAM_HOME/settings.toml" ] && pass "--currency/--rate stores nothing" || fail "--currency/--rate stored settings"

    echo "-- stale-rate warning" >&2
    fresh stale
    mkdir -p "$PRICECAM_HOME"
    printf 'currency = "JPY"\nrate = "0.22"\nhome = "TWD"\nupdated_at = "2020-01-01T00:00:00Z"\n' >"$PRICECAM_HOME/settings.toml"
    run "$BIN" scan --no-history --format jsonl "$IMG" "$IMG"
    n="$(grep -c 'stored exchange rate was set' "$WORK/err")"
    [ "$n" = 1 ] && pass "stale warning once per run" || fail "stale warning printed $n times: $err"
    run "$BIN" scan --no-history --format jsonl --max-rate-age-days 36500 "$IMG"
    n="$(grep -c 'stored exchange rate was set' "$WORK/err")"
    [ "$n" = 0 ] && pass "--max-rate-age-days silences it" || fail "warning despite --max-rate-age-days"

    echo "-- history location unusable" >&2
    fresh unusable
    touch "$WORK/plainfile"
    PRICECAM_HOME="$WORK/plainfile/sub" run "$BIN" scan --format jsonl --currency JPY --rate 0.22 "$IMG"
    contains "clear warning" "$err" "history is off for this run"
    contains "warning names the database" "$err" "$WORK/plainfile/sub/history.sqlite"
    contains "extraction still on stdout" "$out" '"file":'
    [ "$code" != 2 ] && pass "unusable history is not a usage error (exit $code)" || fail "exit 2 for unusable history"
fi

echo "-- history commands" >&2
fresh cmds
run "$BIN" history list --format jsonl; expect_code "list on no database" 0
run "$BIN" history _stress-append --rows 7 --chunk 3 --run cmds; expect_code "append 7" 0
run "$BIN" history list --format jsonl --limit 2
[ "$(printf '%s\n' "$out" | grep -c '"run":"cmds"')" = 2 ] && pass "list --limit 2" || fail "list --limit: $out"
contains "newest first, exact decimals" "$(printf '%s\n' "$out" | head -1)" '"amount":"6","currency":"JPY","rate":"0.22","converted":"1.32","target":"TWD"'
run "$BIN" history list --format csv --source 'stress/5.png'
[ "$(printf '%s\n' "$out" | wc -l)" = 2 ] && pass "list --source + csv header" || fail "list --source: $out"
run "$BIN" history list --since 1d --format jsonl
[ "$(printf '%s\n' "$out" | grep -c run)" = 7 ] && pass "list --since 1d" || fail "list --since: $out"
run "$BIN" history list --since 2999-01-01 --format jsonl
[ -z "$out" ] && pass "list --since future is empty" || fail "list --since future: $out"
run "$BIN" history list --since yesterdayish; expect_code "bad --since" 2
run "$BIN" history export "$WORK/h.csv"; expect_code "export csv" 0
[ "$(wc -l <"$WORK/h.csv")" = 8 ] && pass "csv has header + 7 rows" || fail "csv rows: $(cat "$WORK/h.csv")"
run "$BIN" history export "$WORK/h.jsonl"
[ "$(wc -l <"$WORK/h.jsonl")" = 7 ] && head -1 "$WORK/h.jsonl" | grep -q '"amount":"0"' && pass "jsonl export, oldest first" || fail "jsonl export"
run "$BIN" history export "$WORK/h.txt"; expect_code "export needs a known extension" 2
run "$BIN" history stats --json; expect_code "stats" 0
contains "stats sums" "$out" '"count":7,"runs":1'
contains "stats by currency" "$out" '{"currency":"JPY","target":"TWD","count":7,"amount":"21","converted":"4.62"}'
run "$BIN" history clear; expect_code "clear without --yes off a terminal" 2
run "$BIN" history clear --yes; expect_code "clear --yes" 0
run "$BIN" history stats --json; contains "cleared" "$out" '"count":0'

echo "-- kill -9 during appends" >&2
fresh kill
"$BIN" history _stress-append --rows 10000000 --chunk 200 --run killed --delay-us 5 >/dev/null 2>&1 &
pid=$!
sleep 2.5
kill -9 "$pid"; wait "$pid" 2>/dev/null
run "$BIN" history check; expect_code "integrity check after kill -9" 0
rows="${out#ok }"; rows="${rows% rows}"
if [ "$rows" -gt 0 ] 2>/dev/null && [ $((rows % 200)) = 0 ]; then pass "$rows rows = whole chunks of 200"; else fail "after kill: '$out'"; fi
run "$BIN" history export "$WORK/killed.jsonl"
python3 - "$WORK/killed.jsonl" "$rows" <<'PY' && pass "every committed row intact (0..n-1, exact values)" || fail "rows damaged after kill -9"
import json, sys
from decimal import Decimal
rows = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2])
amounts = sorted(int(r["amount"]) for r in rows)
assert amounts == list(range(n)), "not 0..n-1"
for r in rows:
    assert Decimal(r["converted"]) == (Decimal(r["amount"]) * Decimal("0.22")).quantize(Decimal("0.01")), r
    assert r["source"] == "stress/%s.png" % r["amount"] and r["run"] == "killed", r
PY
run "$BIN" history _stress-append --rows 10 --chunk 5 --run after; expect_code "database usable after kill -9" 0

echo "-- two writers at once (fresh database)" >&2
fresh two
"$BIN" history _stress-append --rows 4000 --chunk 50 --run w1 >"$WORK/w1.log" 2>&1 &
p1=$!
"$BIN" history _stress-append --rows 4000 --chunk 50 --run w2 >"$WORK/w2.log" 2>&1 &
p2=$!
wait $p1; c1=$?; wait $p2; c2=$?
[ "$c1" = 0 ] && [ "$c2" = 0 ] && pass "both writers succeeded" || fail "writers exited $c1/$c2: $(cat "$WORK/w1.log" "$WORK/w2.log")"
run "$BIN" history export "$WORK/two.jsonl"
n1="$(grep -c '"run":"w1"' "$WORK/two.jsonl")"; n2="$(grep -c '"run":"w2"' "$WORK/two.jsonl")"
[ "$n1" = 4000 ] && [ "$n2" = 4000 ] && pass "no row lost (4000 + 4000)" || fail "rows: w1=$n1 w2=$n2"
run "$BIN" history check; contains "integrity after two writers" "$out" "ok 8000 rows"

echo "-- interactive setup on a pseudo-terminal" >&2
fresh tty
python3 - "$BIN" "$ROOT/scripts" <<'PY' && pass "interactive setup: re-prompts, saves, summary" || fail "interactive setup"
import sys
sys.path.insert(0, sys.argv[2])
from pty_dialog import run
steps = [(b"Currency the prices are in", b"jp1\r"), (b"letters A-Z only", b"jpy\r"),
         (b"home currency", b"twd\r"), (b"Exchange rate", b"1,000.5\r"), (b"more than one separator", b"0,22\r")]
ok, text, code = run([sys.argv[1], "setup"], steps, until=b"Saved to", linger=(b"TWD\r\n", 5))
if not ok or code != 0 or "Welcome to pricecam" not in text or "1 JPY = 0.22 TWD" not in text:
    print(text, file=sys.stderr); sys.exit(1)
PY
grep -q '^rate = "0.22"' "$PRICECAM_HOME/settings.toml" && pass "interactive answers saved" || fail "interactive answers not saved"

if [ -n "$IMG" ]; then
    fresh ttygate
    python3 - "$BIN" "$IMG" "$ROOT/scripts" <<'PY' && pass "gate on a terminal runs setup, then the scan" || fail "gate on a terminal"
import sys
sys.path.insert(0, sys.argv[3])
from pty_dialog import run
steps = [(b"Currency the prices are in", b"eur\r"), (b"home currency", b"\r"), (b"Exchange rate", b"2\r")]
ok, text, code = run([sys.argv[1], "scan", "--no-history", "--format", "jsonl", sys.argv[2]], steps,
                     until=b'"file":', linger=(b"\n__never__", 3), timeout=30)
if not ok or code == 2:
    print(text, file=sys.stderr); sys.exit(1)
PY
    grep -q '^currency = "EUR"' "$PRICECAM_HOME/settings.toml" 2>/dev/null && pass "gate setup saved" || fail "gate setup not saved"
fi

if [ "$failures" -gt 0 ]; then echo "test-history: $failures failure(s)" >&2; exit 1; fi
echo "test-history: all passed" >&2
