#!/usr/bin/env python3
"""Writes an image as a Y4M video (4:2:0), the format Chromium's fake camera plays.

Usage: make_y4m.py IMAGE OUT.y4m [FRAMES]
Chromium loops the file; a few identical frames are enough for a still scene.
Width and height are made even (4:2:0 halves both for the chroma planes).
"""
import sys

from PIL import Image

src, out = sys.argv[1], sys.argv[2]
frames = int(sys.argv[3]) if len(sys.argv) > 3 else 5
image = Image.open(src).convert("RGB")
w, h = image.width & ~1, image.height & ~1
image = image.crop((0, 0, w, h))
y, cb, cr = image.convert("YCbCr").split()
half = (w // 2, h // 2)
planes = y.tobytes() + cb.resize(half, Image.BOX).tobytes() + cr.resize(half, Image.BOX).tobytes()
with open(out, "wb") as f:
    f.write(f"YUV4MPEG2 W{w} H{h} F10:1 Ip A1:1 C420jpeg\n".encode())
    for _ in range(frames):
        f.write(b"FRAME\n" + planes)
print(f"{out}: {w}x{h}, {frames} frames")
