#!/usr/bin/env python3
"""Renders price-text lines as a camera sees them, for fine-tuning Tesseract's LSTM.

Each sample is what pricecam's region reader hands Tesseract: one line of price text
(bold or condensed shop faces from Debian font packages), cropped with a margin that
takes in bits of what surrounds a price on a tag (a rule under it, fine print, a coloured
bar), shrunk to the glyph height a webcam or a shelf photo gives a tag's digits, blurred
and JPEG-compressed like a camera frame, then scaled back to the glyph height the reader
reads at. Writes NAME.png, NAME.gt.txt and NAME.box (tesstrain's line-box format).

usage: render_lines.py OUTDIR COUNT SEED
"""
import io
import os
import random
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFilter, ImageFont

# Faces price tags and receipts are printed in: grotesque sans in bold and condensed cuts
# (Helvetica/Arial-like clones from URW, TeX Gyre and Liberation; Roboto; DejaVu; the bold
# CJK face Japanese and Chinese tags use for digits). Debian packages: fonts-urw-base35,
# fonts-texgyre, fonts-liberation, fonts-roboto-unhinted, fonts-dejavu-core, fonts-noto-cjk.
FONTS = [
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Regular.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheroscn-bold.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheros-bold.otf",
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Regular.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Black.ttf",
    "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
]
CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"  # the fine print around a tag's price

# Words that stand beside prices on tags and receipts, so the model keeps its letters.
WORDS = ["TOTAL", "Total", "SUMME", "Prix", "Preis", "ab", "from", "only", "SALE", "NOW",
         "EUR", "USD", "GBP", "CHF", "JPY", "RM", "kg", "/kg", "/100g", "x", "each", "Tax",
         "TTC", "HT", "Rs", "Ft", "incl", "VAT", "save", "Net", "Cash"]


def price(rng):
    """A price as shops print it: whole or with cents, grouped or not, with or without a mark."""
    whole = int(10 ** rng.uniform(0, 5.3))
    style = rng.random()
    sep = rng.choice([",", ".", " "]) if whole >= 1000 and rng.random() < 0.6 else ""
    digits = f"{whole:,}".replace(",", sep) if sep else str(whole)
    if style < 0.45:
        text = digits  # yen, won, forint: no minor unit; and tag prices without a mark
    else:
        dec = "," if sep == "." else "." if sep == "," else rng.choice([".", ","])
        cents = rng.choice([f"{rng.randrange(100):02d}", "99", "90", "00", "95", "49"])
        text = digits + dec + (cents if rng.random() < 0.95 else "-")
    mark = rng.random()
    if mark < 0.12:
        text = rng.choice(["$", "€", "£"]) + text
    elif mark < 0.22:
        text = text + rng.choice([" €", "€", " $"])
    elif mark < 0.27:
        text = "-" + text
    return text


def line_text(rng):
    r = rng.random()
    if r < 0.7:
        return price(rng)
    if r < 0.85:
        return rng.choice(WORDS) + " " + price(rng)
    if r < 0.93:
        return price(rng) + " " + rng.choice(WORDS)
    return f"{rng.randint(1, 9)} x {price(rng)}"


def render(rng, text):
    font = ImageFont.truetype(rng.choice(FONTS), 64)
    left, top, right, bottom = font.getbbox(text)
    cap = font.getbbox("8")[3] - font.getbbox("8")[1]
    ink = rng.randint(0, 90)
    paper = rng.randint(160, 255)
    pad = cap * rng.uniform(0.25, 0.55)
    w = int(right - left + 2 * pad)
    h = int(bottom - top + 2 * pad)
    img = Image.new("L", (w, h), paper)
    d = ImageDraw.Draw(img)
    x0, y0 = pad - left, pad - top
    stroke = rng.choice([0, 0, 0, 1, 2])  # heavier cuts than the font's own bold
    d.text((x0, y0), text, font=font, fill=ink, stroke_width=stroke, stroke_fill=ink)
    # What a tag crop takes in around a price: a rule under it, fine print, a bar above.
    if rng.random() < 0.3:
        y = int(h - pad * rng.uniform(0.1, 0.6))
        d.rectangle([0, y, w, y + rng.randint(2, 6)], fill=ink)
    if rng.random() < 0.2:
        small = ImageFont.truetype(CJK, rng.randint(12, 22))
        fine = "".join(rng.choice("0123456789円税込本体") for _ in range(rng.randint(3, 10)))
        d.text((rng.randint(0, w // 2), h - rng.randint(4, 14)), fine, font=small, fill=ink)
    if rng.random() < 0.15:
        y = rng.randint(0, int(pad * 0.6))
        d.rectangle([0, y, rng.randint(w // 4, w), y + rng.randint(3, 9)], fill=rng.randint(60, 150))
    return img, cap


def degrade(rng, img, cap):
    """Shrinks to a camera's glyph height, blurs, adds noise and JPEG, scales back up."""
    small_cap = rng.uniform(9, 34)
    s = small_cap / cap
    img = img.resize((max(8, int(img.width * s)), max(8, int(img.height * s))), Image.BILINEAR)
    if rng.random() < 0.85:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 0.09 * small_cap + 0.3)))
    if rng.random() < 0.3:  # horizontal motion of a hand-held camera
        k = rng.choice([3, 5])
        img = img.filter(ImageFilter.Kernel((k, k), [1 if r == k // 2 else 0 for r in range(k) for _ in range(k)]))
    if rng.random() < 0.5:
        noise = Image.effect_noise(img.size, rng.uniform(4, 18))
        img = Image.blend(img, noise, rng.uniform(0.05, 0.2))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=rng.randint(25, 90))
    img = Image.open(io.BytesIO(buf.getvalue())).convert("L")
    target = rng.choice([36, 36, 36, 44, 56])  # the reader's glyph heights (RegionReader)
    t = target / small_cap
    return img.resize((max(8, int(img.width * t)), max(8, int(img.height * t))), Image.BILINEAR)


def box_file(text, w, h):
    out = []
    for ch in text:
        if not unicodedata.combining(ch):
            out.append(f"{ch} 0 0 {w} {h} 0")
    out.append(f"\t 0 0 {w} {h} 0")
    return "\n".join(out) + "\n"


def main():
    outdir, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(seed)
    for i in range(count):
        text = line_text(rng)
        img, cap = render(rng, text)
        img = degrade(rng, img, cap)
        name = os.path.join(outdir, f"p{seed}_{i:05d}")
        img.save(name + ".png")
        with open(name + ".gt.txt", "w", encoding="utf-8") as f:
            f.write(text + "\n")
        with open(name + ".box", "w", encoding="utf-8") as f:
            f.write(box_file(text, img.width, img.height))


if __name__ == "__main__":
    main()
