#!/usr/bin/env python3
"""Mutated images against a running `pricecam serve`: uploads and camera frames.

Usage: serve_fuzz.py URL PID SEED_IMAGE COUNT [--seed N] [--stream-share F]

From one seed photo it makes the image in six formats (PNG, JPEG, GIF, TIFF, WebP,
BMP) and mutates them: cut short, bits flipped, header sizes set huge (with the
PNG chunk CRC made right again, so the size is read, not rejected as damage),
bytes spliced from another format. Each goes to `POST /api/v1/scan`, and a share
of them (default a quarter) as a frame on one `GET /api/v1/camera/stream`.

The mutations run twice, the same bytes each time (they depend only on --seed).
Fails (exit 1) when the server process dies, a request gets no answer within 60 s
(a hang), a scan answers 5xx or a 4xx without a JSON error, or the stream is
closed by the server. Memory: the heap in use (`pricecam_memory_heap_in_use_bytes`
in /metrics, malloc's own count) is read after each pass and the same reset of the
caches (the scan worker's per-size text detector nets replaced by the same 4 small
ones, clean scans, a clean camera frame on a stream of its own), with no browser
camera open: a stream's reading (its engines, and the nets its detection thread made
for whichever frames it had time for) is let go when it ends, which
`pricecam_camera_streams_browsers` in /metrics shows. The first pass takes the caches to their
high-water mark, and the second may not add more than 16 MiB to it: a leak of one
decoded image per request would add hundreds. Resident memory is printed too, not judged: the server keeps up to 1 GB of freed heap for the next
image (process_memory.c), so it stays at the largest image's high-water mark.
"""
import argparse
import io
import json
import random
import select
import struct
import sys
import time
import urllib.error
import urllib.request
import zlib

import websocket
from PIL import Image

FORMATS = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "tiff": "TIFF", "webp": "WEBP", "bmp": "BMP"}


def seeds(path):
    image = Image.open(path).convert("RGB")
    out = {}
    for name, pil in FORMATS.items():
        buf = io.BytesIO()
        (image.convert("P") if name == "gif" else image).save(buf, pil)
        out[name] = buf.getvalue()
    return out


def png_fix_crc(data):
    """Recomputes every chunk's CRC, so a changed IHDR is parsed, not rejected."""
    out, i = bytearray(data[:8]), 8
    while i + 8 <= len(data):
        length = struct.unpack(">I", data[i : i + 4])[0]
        end = i + 8 + length
        if end + 4 > len(data):
            out += data[i:]
            break
        chunk = data[i + 4 : end]
        out += data[i : end] + struct.pack(">I", zlib.crc32(chunk) & 0xFFFFFFFF)
        i = end + 4
    return bytes(out)


def huge_header(fmt, data, rng):
    """The image's width and height fields set to a huge or odd value."""
    d = bytearray(data)
    big = rng.choice([0xFFFF, 0x7FFF, 0, 1, 46341])
    if fmt == "png" and len(d) > 24:
        wide = rng.choice([0x7FFFFFFF, 0x10000, 0, 46341])
        d[16:24] = struct.pack(">II", wide, rng.choice([0x7FFFFFFF, 0x10000, 1, 46341]))
        return png_fix_crc(bytes(d))
    if fmt == "jpeg":
        i = d.find(b"\xff\xc0")
        if i < 0:
            i = d.find(b"\xff\xc2")
        if i >= 0 and i + 9 <= len(d):
            d[i + 5 : i + 9] = struct.pack(">HH", big, big)
        return bytes(d)
    if fmt == "gif" and len(d) > 10:
        d[6:10] = struct.pack("<HH", big, big)
        return bytes(d)
    if fmt == "bmp" and len(d) > 26:
        d[18:26] = struct.pack("<ii", rng.choice([0x7FFFFFFF, -0x7FFFFFFF, 0, 65535]), rng.choice([0x7FFFFFFF, -0x7FFFFFFF, 0, 65535]))
        return bytes(d)
    if fmt == "webp" and len(d) > 30:
        d[26:30] = struct.pack("<HH", 0x3FFF, 0x3FFF)
        return bytes(d)
    if fmt == "tiff":
        # The first IFD's ImageWidth (256) and ImageLength (257) entries.
        for tag in (256, 257):
            j = d.find(struct.pack("<HH", tag, 3))
            if j < 0:
                j = d.find(struct.pack("<HH", tag, 4))
            if j >= 0 and j + 12 <= len(d):
                d[j + 8 : j + 12] = struct.pack("<I", rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0, 1 << 20]))
        return bytes(d)
    return bytes(d)


def mutate(fmt, data, others, rng):
    kind = rng.choice(["truncate", "flip", "flip", "header", "splice", "header+flip"])
    if kind == "truncate":
        return kind, data[: rng.randrange(0, len(data))]
    if kind in ("flip", "header+flip"):
        d = bytearray(huge_header(fmt, data, rng) if kind == "header+flip" else data)
        for _ in range(rng.randint(1, 24)):
            # Most damage near the start, where the headers are.
            at = int(rng.random() ** 3 * len(d))
            d[at] ^= 1 << rng.randrange(8)
        return kind, bytes(d)
    if kind == "header":
        return kind, huge_header(fmt, data, rng)
    other = others[rng.choice(list(others))]
    cut = rng.randrange(0, len(data))
    return kind, data[:cut] + other[rng.randrange(0, len(other)) :]


def metric(url, name):
    with urllib.request.urlopen(url + "metrics", timeout=30) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise RuntimeError(f"/metrics has no {name}")


def heap_bytes(url):
    return metric(url, "pricecam_memory_heap_in_use_bytes")


def streams_ended(url):
    """Waits until no browser camera is being read (its reading has ended and let its memory
    go); false after 60 s."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if metric(url, "pricecam_camera_streams_browsers") == 0:
            return True
        time.sleep(0.1)
    return False


def open_stream(url):
    return websocket.create_connection(url.replace("http", "ws", 1) + "api/v1/camera/stream", timeout=60)


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def alive(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return "zombie" not in f.read()
    except FileNotFoundError:
        return False


def scan(url, body, fmt):
    request = urllib.request.Request(url + "api/v1/scan", data=body, method="POST", headers={"Content-Type": f"image/{fmt}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# Small images of 4 sizes: they replace the scan worker's per-size text detector nets (4 kept,
# each holding buffers for its size) with the same 4 small ones, whatever came before.
DETECTOR_RESET = [(96, 64), (64, 96), (128, 64), (64, 128)]


def resized(path, size):
    buf = io.BytesIO()
    Image.open(path).convert("RGB").resize(size).save(buf, "PNG")
    return buf.getvalue()


def reset_caches(args, base, fail):
    """The same state of every cache, whatever the server read before: the scan worker's
    detector nets at the same 4 small sizes, a clean scan of every format, then a clean camera
    frame on a stream of its own, closed and ended before the caller reads the memory."""
    for size in DETECTOR_RESET:
        status, _ = scan(args.url, resized(args.image, size), "png")
        if status != 200:
            fail(f"a clean {size} scan answered {status}")
    for fmt, data in base.items():
        status, _ = scan(args.url, data, fmt)
        if status != 200:
            fail(f"a clean {fmt} scan answered {status}")
    ws = open_stream(args.url)
    if not read_frame(ws, base["png"]):
        fail("the camera stream read no prices from a clean frame")
    ws.close()
    if not streams_ended(args.url):
        fail("the camera stream was closed but its reading did not end within 60 s")


def drain(ws):
    """Reads what the server sent meanwhile (answers, and its pings, which the client library
    answers while reading: a client that never reads is closed after the ping timeout)."""
    while select.select([ws.sock], [], [], 0)[0]:
        ws.recv()


def read_frame(ws, image):
    """Sends a clean frame until a frame message shows prices (the stream's stability rule
    wants a price in several frames); false after 2 minutes."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ws.send_binary(image)
        while True:
            message = json.loads(ws.recv())
            if message.get("event") == "frame":
                break
        if message["prices"]:
            return True
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("pid", type=int)
    parser.add_argument("image")
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stream-share", type=float, default=0.25)
    args = parser.parse_args()
    base = seeds(args.image)
    failures = []

    def fail(what):
        failures.append(what)
        print(f"serve fuzz: FAIL: {what}", file=sys.stderr)

    reset_caches(args, base, fail)
    readings = [(rss_kb(args.pid), heap_bytes(args.url))]
    report = {"mutations": args.count, "seed": args.seed, "passes": []}
    # The same mutations twice: the first pass takes every cache to its high-water mark, the
    # second may not add to it (a leak would add as much again).
    for _ in range(2):
        ws = open_stream(args.url)
        rng = random.Random(args.seed)
        counts, statuses, sent = {}, {}, 0
        started = time.monotonic()
        for i in range(args.count):
            fmt = rng.choice(list(base))
            kind, body = mutate(fmt, base[fmt], {k: v for k, v in base.items() if k != fmt}, rng)
            counts[f"{fmt}/{kind}"] = counts.get(f"{fmt}/{kind}", 0) + 1
            try:
                status, answer = scan(args.url, body, fmt)
            except Exception as e:  # a timeout or a closed connection
                fail(f"mutation {i} ({fmt}/{kind}, {len(body)} bytes): no answer: {e}")
                break
            statuses[status] = statuses.get(status, 0) + 1
            if status >= 500:
                fail(f"mutation {i} ({fmt}/{kind}): {status} {answer[:200]!r}")
            elif status != 200:
                try:
                    json.loads(answer)["error"]["message"]
                except Exception:
                    fail(f"mutation {i} ({fmt}/{kind}): {status} without a JSON error: {answer[:200]!r}")
            if rng.random() < args.stream_share and body:
                try:
                    ws.send_binary(body)
                    sent += 1
                    drain(ws)
                except Exception as e:
                    fail(f"mutation {i}: the camera stream was closed: {e}")
                    break
            if not alive(args.pid):
                fail(f"the server died after mutation {i} ({fmt}/{kind})")
                break
        if failures:
            break
        elapsed = time.monotonic() - started
        # Still answering: clean scans and a clean camera frame give their prices.
        ws.close()
        reset_caches(args, base, fail)
        readings.append((rss_kb(args.pid), heap_bytes(args.url)))
        report["passes"].append(
            {
                "seconds": round(elapsed, 1),
                "statuses": {str(k): v for k, v in sorted(statuses.items())},
                "stream_frames": sent,
                "rss_mb": round(readings[-1][0] / 1024, 1),
                "heap_mb": round(readings[-1][1] / 2**20, 1),
            }
        )
    report["rss_mb_start"] = round(readings[0][0] / 1024, 1)
    report["heap_mb_start"] = round(readings[0][1] / 2**20, 1)
    report["kinds"] = dict(sorted(counts.items()))
    print(json.dumps(report))
    if len(readings) == 3 and readings[2][1] > readings[1][1] + 16 * 2**20:
        fail(
            f"the heap in use grew by {(readings[2][1] - readings[1][1]) / 2**20:.0f} MiB in the second pass of the same "
            f"{args.count} images ({readings[1][1] / 2**20:.0f} → {readings[2][1] / 2**20:.0f} MiB): a leak"
        )
    if not alive(args.pid):
        fail("the server is gone")
    if failures:
        sys.exit(1)
    (r0, h0), (r1, h1), (r2, h2) = readings
    print(
        f"serve fuzz: {args.count} mutated images twice, no crash, no hang, no 5xx; heap in use "
        f"{h0 / 2**20:.0f} → {h1 / 2**20:.0f} → {h2 / 2**20:.0f} MiB, resident {r0 // 1024} → {r1 // 1024} → {r2 // 1024} MiB"
    )


if __name__ == "__main__":
    main()
