#!/usr/bin/env bash
# History on PostgreSQL: starts Debian's PostgreSQL server on a temporary data
# directory (as the `postgres` user; initdb refuses root), on a free port of
# 127.0.0.1 with its socket in the same folder, and runs against it:
#   (a) the history Swift tests with PRICECAM_TEST_POSTGRES set (the PostgreSQL
#       suite must pass, not be skipped),
#   (b) two `history _stress-append` writers at once: every row of both, exactly once,
#   (c) a writer killed with -9 midway: every committed chunk, nothing duplicated, `check` ok,
#   (d) scan, `history list/export/stats/clear/check` and a bad password through the CLI
#       with --history postgres://… (and PRICECAM_HISTORY),
#   (e) the server's history tests on PostgreSQL (that suite must pass, not be skipped),
#   (f) `pricecam serve --history postgres://…`: a scan posted with curl is in `history list`;
#       the database stopped: 503 JSON errors; started again: answers again; SIGTERM exits 0;
#       a wrong password stops the start (exit 2).
# The server is stopped and the folder removed on exit.
#   PRICECAM_BIN=path/to/pricecam scripts/test-postgres.sh   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/bootstrap.sh --postgres

pgbin=/usr/lib/postgresql/15/bin
swift build --build-tests >&2
bin="${PRICECAM_BIN:-$(swift build --show-bin-path)/pricecam}"
[ -x "$bin" ] || { echo "test-postgres: $bin is not built" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/pricecam-postgres.XXXXXX")"
chmod 755 "$work"
mkdir "$work/data" "$work/run" "$work/home" "$work/out"
chown postgres:postgres "$work/data" "$work/run"
as_postgres() { runuser -u postgres -- "$@"; }
cleanup() {
    [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
    as_postgres "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "test-postgres: FAIL: $*" >&2
    [ -f "$work/run/server.log" ] && { echo "--- server log" >&2; tail -20 "$work/run/server.log" >&2; }
    exit 1
}
free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A cluster whose superuser `pricecam` needs its password over TCP (so a wrong one is refused).
password="pw$RANDOM$RANDOM"
printf '%s\n' "$password" >"$work/run/pwfile"
chown postgres "$work/run/pwfile"
as_postgres "$pgbin/initdb" -D "$work/data" -U pricecam --pwfile="$work/run/pwfile" -E UTF8 --no-locale \
    --auth-local=trust --auth-host=scram-sha-256 >"$work/run/initdb.log" 2>&1 || { cat "$work/run/initdb.log" >&2; fail "initdb"; }
port="$(free_port)"
# fsync off: only the client is killed here, never the server.
start_postgres() {
    as_postgres "$pgbin/pg_ctl" -D "$work/data" -l "$work/run/server.log" -w -t 60 \
        -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$work/run -c fsync=off" start >/dev/null
}
start_postgres || fail "the server did not start"
createdb -h "$work/run" -p "$port" -U pricecam pricecam_test || fail "createdb"
url="postgres://pricecam:$password@127.0.0.1:$port/pricecam_test"
echo "test-postgres: server on 127.0.0.1:$port" >&2
export PRICECAM_HOME="$work/home"  # the SQLite default must stay untouched
pc() { "$bin" "$@" --history "$url"; }  # (not for background jobs: $! must be pricecam's pid)

echo "-- (a) the history Swift tests on SQLite and PostgreSQL" >&2
PRICECAM_TEST_POSTGRES="$url" swift test --skip-build --filter HistoryTests >"$work/out/swift-test.log" 2>&1 ||
    { tail -40 "$work/out/swift-test.log" >&2; fail "swift test"; }
grep -q 'Suite "history on PostgreSQL" passed' "$work/out/swift-test.log" ||
    { tail -20 "$work/out/swift-test.log" >&2; fail "the PostgreSQL suite did not run"; }

# rows_of RUN FILE: checks that FILE (history export, JSON Lines) holds RUN's rows 0..n-1
# exactly once each; prints n.
rows_of() {
    /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
run, path = sys.argv[1], sys.argv[2]
amounts = sorted(int(r["amount"]) for r in map(json.loads, open(path)) if r["run"] == run)
if amounts != list(range(len(amounts))):
    sys.exit(f"run {run}: {len(amounts)} rows, not 0..n-1 exactly once")
print(len(amounts))
PY
}

echo "-- (b) two writers at once (the first ones: they also race to create the table)" >&2
"$bin" history _stress-append --history "$url" --rows 4000 --chunk 50 --run w1 & w1=$!
"$bin" history _stress-append --history "$url" --rows 4000 --chunk 50 --run w2 & w2=$!
wait "$w1" || fail "writer w1 failed"
wait "$w2" || fail "writer w2 failed"
pc history export "$work/out/two.jsonl" 2>/dev/null || fail "export"
[ "$(rows_of w1 "$work/out/two.jsonl")" = 4000 ] || fail "w1 rows"
[ "$(rows_of w2 "$work/out/two.jsonl")" = 4000 ] || fail "w2 rows"

echo "-- (c) a writer killed midway" >&2
"$bin" history _stress-append --history "$url" --rows 10000000 --chunk 200 --run killed --delay-us 5 & killed=$!
sleep 3
kill -9 "$killed"
wait "$killed" 2>/dev/null || true
check="$(pc history check)" || fail "check after kill -9: $check"
pc history export "$work/out/killed.jsonl" 2>/dev/null || fail "export after kill"
n="$(rows_of killed "$work/out/killed.jsonl")" || fail "the killed writer's rows"
[ "$n" -gt 0 ] && [ $((n % 200)) = 0 ] || fail "the killed writer left $n rows: not whole chunks of 200"
[[ "$check" == "ok $((8000 + n)) rows (PostgreSQL"* ]] || fail "check says '$check', expected ok $((8000 + n)) rows"
[ "$(rows_of w1 "$work/out/killed.jsonl")" = 4000 ] || fail "w1 rows after the kill"
pc history _stress-append --rows 10 --chunk 5 --run after || fail "the history is not writable after the kill"
echo "test-postgres: killed writer left $n rows (whole chunks); check: $check" >&2

echo "-- (d) the CLI commands" >&2
pc history clear >/dev/null 2>&1 && fail "clear without --yes off a terminal"
pc history clear --yes 2>/dev/null || fail "clear --yes"
[[ "$(pc history check)" == "ok 0 rows"* ]] || fail "rows left after clear"
pc history _stress-append --rows 7 --chunk 3 --run cmds || fail "append 7"
first="$(pc history list --format jsonl --limit 2 | head -n 1)"
[[ "$first" == *'"amount":"6","currency":"JPY","rate":"0.22","converted":"1.32","target":"TWD"'* ]] ||
    fail "list: newest first, exact decimals: $first"
[ "$(pc history list --format csv --source stress/5.png | wc -l)" = 2 ] || fail "list --source (header + one row)"
[ "$(pc history list --format jsonl --since 1d | wc -l)" = 7 ] || fail "list --since 1d"
[ -z "$(pc history list --format jsonl --since 2999-01-01)" ] || fail "list --since the future"
pc history export "$work/out/h.csv" 2>/dev/null || fail "export csv"
[ "$(wc -l <"$work/out/h.csv")" = 8 ] || fail "export csv: header + 7 rows"
stats="$(PRICECAM_HISTORY="$url" "$bin" history stats --json)" || fail "stats through PRICECAM_HISTORY"
[[ "$stats" == *'"count":7,"runs":1'* && "$stats" == *'{"currency":"JPY","target":"TWD","count":7,"amount":"21","converted":"4.62"}'* ]] ||
    fail "stats: $stats"
"$bin" scan --currency GBP --rate 1.17 --format jsonl --history "$url" Fixtures/clean/frame_0001.png >/dev/null ||
    fail "scan recording to PostgreSQL"
scanned="$(pc history list --format jsonl --source frame_0001.png)"
[[ "$(wc -l <<<"$scanned")" = 2 && "$scanned" == *'"amount":"56.5","currency":"GBP","rate":"1.17","converted":"66.11"'* ]] ||
    fail "scan's two prices are not in the history: $scanned"
bad="postgres://pricecam:wrong-password@127.0.0.1:$port/pricecam_test"
if msg="$("$bin" history list --history "$bad" 2>&1)"; then fail "a wrong password was accepted"; fi
[[ "$msg" == *'authentication failed for user "pricecam"'* && "$msg" != *wrong-password* ]] ||
    fail "wrong password message: $msg"

echo "-- (e) the server's history tests on PostgreSQL" >&2
PRICECAM_TEST_POSTGRES="$url" swift test --skip-build --filter 'ServerTests\.(PostgresHistoryAPITests|UnreachableHistoryTests)' \
    >"$work/out/swift-test-serve.log" 2>&1 || { tail -40 "$work/out/swift-test-serve.log" >&2; fail "swift test (serve)"; }
grep -q 'Suite "serve: history on PostgreSQL" passed' "$work/out/swift-test-serve.log" ||
    { tail -20 "$work/out/swift-test-serve.log" >&2; fail "the server's PostgreSQL suite did not run"; }
grep -h 'Test run with' "$work/out/swift-test-serve.log" >&2

echo "-- (f) pricecam serve on PostgreSQL" >&2
"$bin" setup --currency GBP --rate 1.17 >/dev/null || fail "setup"
start_serve "$bin" "$PRICECAM_HOME" "$work/out/serve.log" --no-camera --jobs 1 --history "$url"
answer="$(curl -sS -X POST -H 'Content-Type: image/png' --data-binary @Fixtures/clean/frame_0001.png "$serve_url/api/v1/scan")" ||
    fail "POST /api/v1/scan"
[[ "$answer" == *'"prices":[{'* ]] || fail "the scan's answer: $answer"
uploaded="$(pc history list --format jsonl --source upload)"
[[ "$(wc -l <<<"$uploaded")" = 2 && "$uploaded" == *'"amount":"56.5","currency":"GBP","rate":"1.17","converted":"66.11"'* ]] ||
    fail "the served scan's two prices are not in the history: $uploaded"
# The database goes away while serving: history requests get a JSON error, then work again once it is back.
as_postgres "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null || fail "stopping PostgreSQL"
code="$(curl -sS -o "$work/out/down.json" -w '%{http_code}' "$serve_url/api/v1/history/stats")" || fail "no answer while the database is down"
down="$(cat "$work/out/down.json")"
[[ "$code" = 503 && "$down" == *'"code":"history_unavailable"'* && "$down" == *"postgres://pricecam@127.0.0.1:$port/pricecam_test"* ]] ||
    fail "while the database is down: HTTP $code $down"
[[ "$down" != *"$password"* ]] || fail "the password is in the error: $down"
echo "test-postgres: while the database was down: HTTP $code $down" >&2
kill -0 "$serve_pid" 2>/dev/null || fail "serve ended while the database was down"
start_postgres || fail "PostgreSQL did not start again"
stats="$(curl -sS -f "$serve_url/api/v1/history/stats")" || fail "history stats after the database came back"
[[ "$stats" == *'"count":'* ]] || fail "stats after the database came back: $stats"
stop_serve
! grep -q "$password" "$work/out/serve.log" || fail "the password is in serve's log"
status=0
msg="$("$bin" serve --port 0 --no-camera --history "$bad" 2>&1)" || status=$?
[ "$status" = 2 ] || fail "serve with a wrong password exited $status: $msg"
[[ "$msg" == *'authentication failed for user "pricecam"'* && "$msg" != *wrong-password* && "$msg" != *http://* ]] ||
    fail "serve's wrong password message: $msg"
[ ! -e "$PRICECAM_HOME/history.sqlite" ] || fail "the SQLite default was created"
echo "test-postgres: PASS (Swift tests on PostgreSQL, two writers, killed writer, CLI, serve)"
