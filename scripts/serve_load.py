#!/usr/bin/env python3
"""Load check of `pricecam serve` (a script, not a timed test).

Usage: serve_load.py URL FIXTURES_DIR [CLIENTS] [SCANS_EACH]

1. Three WebSocket clients attach to /api/v1/live (one reads slowly, like a busy
   browser): the camera's per-frame latency p50/p99 is printed with one browser
   and with three, beside the live bound.
2. CLIENTS threads (default 8) each POST SCANS_EACH (default 50) fixture images to
   /api/v1/scan over loopback. Every request must be answered 200, and the
   history must then hold exactly the prices the answers reported.
Prints request latency p50/p99. Exit 1 when a check fails; timings never fail it.
"""
import base64
import json
import os
import socket
import statistics
import sys
import threading
import time
import urllib.request

url, fixtures = sys.argv[1].rstrip("/"), sys.argv[2]
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 8
each = int(sys.argv[4]) if len(sys.argv) > 4 else 50
host, port = url.split("//")[1].split(":")[0], int(url.rsplit(":", 1)[1])

images = sorted(os.path.join(fixtures, "clean", f) for f in os.listdir(os.path.join(fixtures, "clean")) if f.endswith(".png"))
failures = []


def request(method, path, body=None, headers=None):
    req = urllib.request.Request(url + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] if s else float("nan")


# 1. Browsers on the live feed (before the scans, so OCR has the cores to itself).
def camera():
    status, body = request("GET", "/api/v1/status")
    return json.loads(body)["camera"] if status == 200 else {}


def websocket(stop, slow, seen, index):
    """A minimal RFC 6455 client: handshake, then read text frames until told to stop.
    Appends (time, latency of that frame) for every frame message to seen[index]."""
    s = socket.create_connection((host, port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /api/v1/live HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    if b" 101 " not in head.split(b"\r\n")[0]:
        failures.append(f"websocket {index}: no upgrade: {head[:100]!r}")
        return

    def exact(n):
        data = b""
        while len(data) < n:
            chunk = s.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    try:
        while not stop.is_set():
            b0, b1 = exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(exact(2), "big")
            elif n == 127:
                n = int.from_bytes(exact(8), "big")
            payload = exact(n)
            if b0 & 0x0F == 1:
                message = json.loads(payload)
                if message.get("event") == "frame" and message.get("latency_last_ms") is not None:
                    seen[index].append((time.monotonic(), message["latency_last_ms"]))
            if slow:
                time.sleep(0.5)  # a busy browser: must get the newest message, never slow the camera
    except (OSError, ConnectionError):
        pass
    finally:
        s.close()


if camera().get("source"):
    stop, seen = threading.Event(), [[], [], []]
    observer = threading.Thread(target=websocket, args=(stop, False, seen, 0))
    observer.start()
    time.sleep(8)
    alone_until = time.monotonic()
    others = [threading.Thread(target=websocket, args=(stop, i == 2, seen, i)) for i in (1, 2)]
    for t in others:
        t.start()
    time.sleep(8)
    bound = camera().get("bound_ms")
    stop.set()
    for t in [observer] + others:
        t.join(timeout=5)
    alone = [ms for t, ms in seen[0] if t <= alone_until][3:]  # the first frames load the engines
    three = [ms for t, ms in seen[0] if t > alone_until]
    print(f"camera, 1 browser:  {len(alone)} frames, latency p50 {percentile(alone, 50):.0f} ms, p99 {percentile(alone, 99):.0f} ms")
    print(f"camera, 3 browsers (one slow): {len(three)} frames, latency p50 {percentile(three, 50):.0f} ms, "
          f"p99 {percentile(three, 99):.0f} ms; live bound {bound} ms; messages per browser {[len(x) for x in seen]}")
    if min(len(x) for x in seen) == 0:
        failures.append(f"a browser got no live message: {[len(x) for x in seen]}")

# 2. Scans.
status, _ = request("DELETE", "/api/v1/history?confirm=yes")
latencies, reported, lock = [], [0], threading.Lock()


def client(i):
    for n in range(each):
        path = images[(i * each + n) % len(images)]
        with open(path, "rb") as f:
            data = f.read()
        start = time.monotonic()
        status, body = request("POST", "/api/v1/scan", data, {"Content-Type": "image/png"})
        took = (time.monotonic() - start) * 1000
        with lock:
            latencies.append(took)
            if status != 200:
                failures.append(f"client {i} scan {n} ({os.path.basename(path)}): HTTP {status} {body[:200]!r}")
            else:
                reported[0] += sum(1 for p in json.loads(body)["prices"] if p["converted"] is not None)


start = time.monotonic()
threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
wall = time.monotonic() - start
status, body = request("GET", "/api/v1/history?limit=1&q=upload")  # the scans' rows (the camera records its own)
stored = json.loads(body)["total"] if status == 200 else -1
answered = len(latencies)
print(f"scans: {answered} of {clients * each} answered in {wall:.1f} s ({answered / wall:.1f}/s); "
      f"latency p50 {percentile(latencies, 50):.0f} ms, p99 {percentile(latencies, 99):.0f} ms")
print(f"history: {stored} rows for {reported[0]} converted prices reported")
if answered != clients * each:
    failures.append(f"{clients * each - answered} requests unanswered")
if stored != reported[0]:
    failures.append(f"history holds {stored} rows, the answers reported {reported[0]} converted prices")


for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
