#!/usr/bin/python3
"""Judges what scripts/v4l2/inside.sh left in OUT; prints one line per check.

Usage: check.py OUT TRUTH.json    (exit 0 when every check passes)
"""
import json
import os
import sys

out, truth_path = sys.argv[1], sys.argv[2]
truth = json.load(open(truth_path))
RATE, HOME = "31.5", "TWD"
# Share of the OCR p99 the latency check allows for an emulated guest's scheduling (see there):
# half, between what the guests showed (1-12%) and what a frame queued behind another adds (all).
EMULATION_SLACK = 0.5
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"  {'PASS' if ok else 'FAIL'}  {name}" + (f"  ({detail})" if detail else ""))


def read(name, default=""):
    p = os.path.join(out, name)
    return open(p, errors="replace").read().strip() if os.path.exists(p) else default


def events(name, stamped=False):
    evs = []
    for line in read(name).splitlines():
        t = None
        if stamped:
            t, _, line = line.partition(" ")
            t = float(t)
        try:
            e = json.loads(line)
        except ValueError:
            continue
        e["_t"] = t
        evs.append(e)
    return evs


def last_lines(text, n=3):
    """The last n whole lines of a log (a character cut would start mid-line)."""
    return " | ".join(text.splitlines()[-n:])


def final_stats(evs):
    s = [e for e in evs if e.get("event") == "stats" and e.get("final")]
    return s[-1] if s else None


def converted(amount):
    from decimal import Decimal, ROUND_HALF_UP  # NSDecimalRound .plain, as Conversion does
    return str((Decimal(amount) * Decimal(RATE)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


if os.path.exists(os.path.join(out, "setup.failed")) or not os.path.exists(os.path.join(out, "inside.done")):
    check("guest ran the whole scenario", False, last_lines(read("inside.log")))

# 1. devices
dev = read("devices.txt")
check("devices lists the vivid capture node with its formats",
      read("devices.rc") == "0" and "/dev/video0" in dev and "YUYV" in dev and "GREY" in dev,
      f"rc={read('devices.rc')}")
check("devices marks the output node as not usable", "/dev/video1" in dev and "output" in dev)

# 2. prices on frame A
evs = events("live-a.jsonl")
prices = [e for e in evs if e.get("event") == "price"]
st = final_stats(evs)
seen = {e["amount"]: e for e in prices}
for amount in truth["a"]:
    e = seen.get(amount)
    check(f"live reports {amount} USD converted", e is not None and e.get("currency") == "USD"
          and e.get("converted") == converted(amount) and e.get("target") == HOME and e.get("rate") == RATE
          and e.get("device") == "/dev/video0" and isinstance(e.get("frame"), int) and len(e.get("box") or []) == 4,
          json.dumps({k: e.get(k) for k in ("text", "amount", "converted", "target", "frame")}) if e else "not reported")
check("each price reported once per appearance", len(prices) == len(seen) and len(seen) > 0,
      f"{len(prices)} events, {len(seen)} prices")
check("live exits 0 at --frames", read("live-a.rc") == "0", last_lines(read("live-a.err")))
if st:
    lat, bound = st["latency_ms"], st["bound_ms"]
    # The bound covers pricecam's part: from the moment it has the frame. Inside an
    # emulated guest on a shared host, the driver→process delivery delay (measured
    # per frame as delivery_ms) can add tens of ms that no design controls; it is
    # reported and added, and whether the bare bound held is said too. So can the
    # emulator's scheduling around each frame's OCR (the bound's 5 ms is a native
    # machine's): p99 latency came 10.5, 50.3 and 101.5 ms over the bare bound in fresh
    # guests, 1-12% of the OCR p99 (a tenth, the slack before, failed the third: the
    # 2026-11-26 fresh-check of b9dfe12; the same build passed in the next guest). What
    # this check guards is the design, drop to the newest frame: a frame read after
    # waiting behind another would add up to a whole OCR time, a whole one at p99, so
    # EMULATION_SLACK (half the OCR p99, midway) still fails it. The native bound is
    # measured by scripts/bench-live-ocr.sh.
    deliv = st.get("delivery_ms", {}).get("p99", 0.0)
    slack = EMULATION_SLACK * st["ocr_ms"]["p99"]
    strict = lat["p99"] <= bound
    check("latency stats present and p99 within the bound (p99 OCR + frame interval + 5 ms [+ p99 delivery delay + half the OCR p99 for emulation])",
          st["processed"] >= 3 and lat["p99"] <= bound + deliv + slack,
          f"captured {st['captured']}, processed {st['processed']}, dropped {st['dropped']}, "
          f"latency p50 {lat['p50']} p99 {lat['p99']} max {lat['max']} ms, OCR p99 {st['ocr_ms']['p99']} ms, "
          f"interval {st['frame_interval_ms']} ms, bound {bound} ms, delivery p99 {deliv} ms, slack {slack:.1f} ms; "
          f"bare bound {'held' if strict else 'exceeded by %.1f ms' % (lat['p99'] - bound)}")
    check("periodic stats lines with --stats", sum(1 for e in evs if e.get("event") == "stats") >= 2)
else:
    check("latency stats present", False, "no final stats line")

# 3. switch A -> B
sw = events("switch.jsonl", stamped=True)
t_switch = float(read("switch.t", "nan") or "nan")
swst = final_stats(sw)
b_first = [e for e in sw if e.get("event") == "price" and e["amount"] in truth["b"]]
a_late = [e for e in sw if e.get("event") == "price" and e["amount"] in truth["a"] and e["_t"] > t_switch]
gone = {e["amount"] for e in sw if e.get("event") == "gone"}
check("switch run stopped by SIGTERM exits 0 with final stats", read("switch.rc") == "0" and swst is not None,
      f"rc={read('switch.rc')}")
if b_first and swst and t_switch == t_switch:
    reported = {e["amount"] for e in b_first}
    delay = (max(e["_t"] for e in b_first if e["amount"] in truth["b"]) - t_switch) * 1000
    interval = swst["frame_interval_ms"] or 0
    jobs = int(read("jobs", "1") or 1)
    k = 3
    ocr99 = swst["ocr_ms"]["p99"]
    deliv = swst.get("delivery_ms", {}).get("p99", 0.0)
    period = max(interval, ocr99 / jobs) + interval
    # The first B frame crosses the output queue (3 buffers); the frame in OCR at
    # the switch finishes (<= p99 OCR); then K frames showing B are read, each
    # <= p99 OCR per worker + one interval; + 5 ms, delivery delay, clock resolution.
    allowed = 3 * interval + ocr99 + k * period + 5 + deliv + 20
    check("after the switch the new prices are reported", reported == set(truth["b"]), f"{sorted(reported)}")
    check("the switch is reported within the bound", delay <= allowed,
          f"{delay:.0f} ms after the switch; allowed {allowed:.0f} ms = output queue {3 * interval:.0f} + "
          f"frame in OCR {ocr99:.0f} + K={k} x {period:.0f} ms per read frame + 5 + delivery p99 {deliv:.0f} + 20 clock")
    check("old prices are not reported from stale frames after the switch", not a_late,
          f"{len(a_late)} late events")
    check("old prices reported gone", set(truth["a"]) <= gone, f"gone: {sorted(gone)}")
else:
    check("after the switch the new prices are reported", False,
          f"switch at {t_switch}, {len(b_first)} B events, stats {'yes' if swst else 'no'}")

# 4. errors
for name, what, needle in [
    ("err-output", "the output node", "not a video capture device"),
    ("err-missing", "a missing node", "no such device"),
    ("err-busy", "a busy node", "busy"),
    ("err-gone", "the device unbound mid-stream", "disappeared"),
]:
    msg = read(name + ".err")
    check(f"{what}: exit 3 with a clear message", read(name + ".rc") == "3" and needle in msg,
          f"rc={read(name + '.rc', 'none')}: {msg.splitlines()[-1] if msg else ''}")
if read("err-gone.end") and read("err-gone.start"):
    took = float(read("err-gone.end")) - float(read("err-gone.start"))
    ended_first = took < 0  # the run ended on its own before the unbind: nothing was tested
    check("no hang after the device disappears", 0 <= took < 5,
          f"the run ended {-took:.1f} s before the unbind" if ended_first else f"exited {took:.1f} s after unbind")

passed = sum(results)
print(f"test-v4l2: {passed}/{len(results)} checks passed")
sys.exit(0 if all(results) else 1)
