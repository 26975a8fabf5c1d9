#!/usr/bin/python3
"""Frames with known prices for the V4L2 end-to-end test and the live benchmark.

Usage: /usr/bin/python3 scripts/v4l2/make-frames.py OUTDIR [--size 640x480] [--bench]

Writes OUTDIR/a.png and OUTDIR/b.png (and a.yuyv / b.yuyv: one raw YUYV 4:2:2
frame each, limited-range luma, neutral chroma, as vivid's output node takes
them), plus OUTDIR/truth.json with the prices drawn. The truth comes from what
was drawn, never from OCR. Needs Pillow and fonts-dejavu-core.
"""
import json
import os
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

# Two frames: switching from A to B must change the reported prices.
FRAMES = {
    "a": [("$12.99", "12.99"), ("$4.50", "4.50")],
    "b": [("$7.25", "7.25"), ("$36.80", "36.80")],
}


def render(lines, w, h, dense):
    img = Image.new("L", (w, h), 235)
    d = ImageDraw.Draw(img)
    big = ImageFont.truetype(FONT, max(24, h // 9))
    small = ImageFont.truetype(FONT, max(14, h // 30))
    y = h // 10
    for text, _ in lines:
        d.text((w // 8, y), text, font=big, fill=20)
        y += int(h / 4.5)
    if dense:
        # Extra shelf-label text so recognising a frame takes longer (benchmark).
        filler = "FRESH ORGANIC APPLES 1KG BAG  WHOLE MILK 2L  RYE BREAD 500G"
        for i in range(2):
            d.text((w // 16, y + i * (small.size + 8)), filler, font=small, fill=40)
    return img


def to_yuyv(img):
    w, h = img.size
    px = img.tobytes()
    out = bytearray(w * h * 2)
    for i, v in enumerate(px):
        out[2 * i] = 16 + (v * 219 + 127) // 255
        out[2 * i + 1] = 128
    return bytes(out)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    out = args[0]
    size = "640x480"
    if "--size" in args:
        size = args[args.index("--size") + 1]
    dense = "--bench" in args
    w, h = (int(v) for v in size.split("x"))
    os.makedirs(out, exist_ok=True)
    truth = {}
    for name, lines in FRAMES.items():
        img = render(lines, w, h, dense)
        img.save(os.path.join(out, name + ".png"))
        if not dense:
            with open(os.path.join(out, name + ".yuyv"), "wb") as f:
                f.write(to_yuyv(img))
        truth[name] = [amount for _, amount in lines]
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


main()
