#!/usr/bin/python3
# bootstrap: --fixtures   (run scripts/bootstrap.sh --fixtures first: Pillow, fonts, tesseract CLI)
"""Deterministic fixture generator for pricecam.

Renders price strings (many currencies and number formats) onto webcam-like
frames, shelf-tag crops and receipt crops, in a clean family and several
degraded families, plus negatives (no price at all). Writes, per family,
Fixtures/<family>/*.png (jpeg family: *.jpg) and Fixtures/<family>/gt.json.

The ground truth is written from the values the generator rendered, never from
OCR output. Every image has its own random.Random seeded from a fixed string,
so running this twice gives byte-identical files.

Usage:  /usr/bin/python3 scripts/gen-fixtures.py [--out Fixtures] [--only FAMILY ...]
        /usr/bin/python3 scripts/gen-fixtures.py --boxes [FAMILY ...] [--draw /tmp/boxes]

Needs Pillow (Debian: python3-pil) and these Debian font packages:
fonts-dejavu-core, fonts-liberation, fonts-noto-cjk; scripts/bootstrap.sh --fixtures
installs them (and the tesseract CLI that --check uses).
"""

import argparse
import json
import math
import os
import random
import shutil
import sys

try:
    from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont
except ImportError:  # pragma: no cover
    sys.exit("gen-fixtures: Pillow is missing; install it with: sudo scripts/bootstrap.sh --fixtures\n"
             "(run this script with /usr/bin/python3, not a pyenv/venv python)")

SEED = "pricecam-fixtures-v1"

# ---------------------------------------------------------------- fonts ----

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
LIBERATION = "/usr/share/fonts/truetype/liberation/"
NOTO = "/usr/share/fonts/opentype/noto/"

FONT_FILES = {
    "sans": (DEJAVU + "DejaVuSans.ttf", "fonts-dejavu-core"),
    "sans-bold": (DEJAVU + "DejaVuSans-Bold.ttf", "fonts-dejavu-core"),
    "sans-cond-bold": (DEJAVU + "DejaVuSansCondensed-Bold.ttf", "fonts-dejavu-core"),
    "mono": (DEJAVU + "DejaVuSansMono.ttf", "fonts-dejavu-core"),
    "mono-bold": (DEJAVU + "DejaVuSansMono-Bold.ttf", "fonts-dejavu-core"),
    "lib-sans": (LIBERATION + "LiberationSans-Regular.ttf", "fonts-liberation"),
    "lib-sans-bold": (LIBERATION + "LiberationSans-Bold.ttf", "fonts-liberation"),
    "lib-serif-bold": (LIBERATION + "LiberationSerif-Bold.ttf", "fonts-liberation"),
    "lib-mono": (LIBERATION + "LiberationMono-Regular.ttf", "fonts-liberation"),
    "lib-mono-bold": (LIBERATION + "LiberationMono-Bold.ttf", "fonts-liberation"),
    "cjk": (NOTO + "NotoSansCJK-Regular.ttc", "fonts-noto-cjk"),
    "cjk-bold": (NOTO + "NotoSansCJK-Bold.ttc", "fonts-noto-cjk"),
}

TEXT_FONTS = ["sans", "sans-bold", "sans-cond-bold", "lib-sans", "lib-sans-bold", "lib-serif-bold"]
PRICE_FONTS = ["sans-bold", "sans-cond-bold", "lib-sans-bold", "sans", "lib-sans"]
MONO_FONTS = ["mono", "mono-bold", "lib-mono", "lib-mono-bold"]


def check_fonts():
    missing = {}
    for name, (path, pkg) in FONT_FILES.items():
        if not os.path.isfile(path):
            missing.setdefault(pkg, []).append(path)
    if missing:
        lines = ["gen-fixtures: missing fonts:"]
        for pkg, paths in sorted(missing.items()):
            for p in paths:
                lines.append("  %s  (Debian package %s)" % (p, pkg))
        lines.append("install them with: sudo apt-get install " + " ".join(sorted(missing)))
        sys.exit("\n".join(lines))


_font_cache = {}
_missing_glyph = {}


def font(name, size):
    key = (name, size)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(FONT_FILES[name][0], size)  # .ttc: index 0 (JP)
    return _font_cache[key]


def _glyph_bitmap(f, ch):
    im = Image.new("L", (64, 64))
    ImageDraw.Draw(im).text((8, 8), ch, font=f, fill=255)
    return im.tobytes()


def covers(name, text):
    """True if font `name` has a real glyph for every character of text."""
    f = font(name, 40)
    if name not in _missing_glyph:
        _missing_glyph[name] = _glyph_bitmap(f, "\ue000")  # private use: .notdef
    miss = _missing_glyph[name]
    return all(ch.isspace() or _glyph_bitmap(f, ch) != miss for ch in set(text))


def pick_font(rng, names, text, bold=None):
    """A font from names that has every glyph of text (CJK font for 円)."""
    if "円" in text:
        return "cjk-bold" if bold else "cjk"
    ok = [n for n in names if covers(n, text)]
    if not ok:
        ok = ["sans-bold"] if bold else ["sans"]
    return rng.choice(ok)


# --------------------------------------------------------------- prices ----

# (iso, prefix, suffix, decimal separator, grouping separator, minor digits)
STYLES = {
    "usd": ("USD", "$", "", ".", ",", 2),
    "usd-iso-after": ("USD", "", " USD", ".", ",", 2),
    "usd-iso-before": ("USD", "USD ", "", ".", ",", 2),
    "eur-de": ("EUR", "", " €", ",", ".", 2),
    "eur-fr": ("EUR", "", " €", ",", " ", 2),
    "eur-ie": ("EUR", "€", "", ".", ",", 2),
    "eur-iso": ("EUR", "EUR ", "", ",", ".", 2),
    "gbp": ("GBP", "£", "", ".", ",", 2),
    "jpy": ("JPY", "¥", "", "", ",", 0),
    "jpy-iso": ("JPY", "JPY ", "", "", ",", 0),
    "jpy-kanji": ("JPY", "", "円", "", ",", 0),
    "inr": ("INR", "₹", "", ".", ",", 2),
    "chf": ("CHF", "CHF ", "", ".", "'", 2),
    "brl": ("BRL", "R$ ", "", ",", ".", 2),
    "pln-before": ("PLN", "zł ", "", ",", " ", 2),
    "pln-after": ("PLN", "", " zł", ",", " ", 2),
    "krw": ("KRW", "₩", "", "", ",", 0),
}

# Symbols Debian's eng traineddata cannot read (円 dropped, ₹ read as %, ₩ as W):
# they get a family of their own ("symbols", with a recall floor) so that
# "clean" holds only what the OCR model can read exactly.
EXOTIC_STYLES = {"jpy-kanji", "inr", "krw"}

# weights for frames/tags (円 is rare: eng traineddata cannot read it)
STYLE_WEIGHTS = {
    "usd": 6, "usd-iso-after": 2, "usd-iso-before": 2, "eur-de": 6, "eur-fr": 3,
    "eur-ie": 2, "eur-iso": 3, "gbp": 4, "jpy": 4, "jpy-iso": 2, "jpy-kanji": 1,
    "inr": 2, "chf": 3, "brl": 3, "pln-before": 2, "pln-after": 2, "krw": 2,
}


def group(intpart, sep):
    s = str(intpart)
    if not sep or len(s) <= 3:
        return s
    parts = []
    while len(s) > 3:
        parts.insert(0, s[-3:])
        s = s[:-3]
    parts.insert(0, s)
    return sep.join(parts)


def fmt_amount(minor, digits):
    """Plain decimal string for gt.json: '.' separator, no grouping."""
    sign = "-" if minor < 0 else ""
    minor = abs(minor)
    if digits == 0:
        return sign + str(minor)
    q, r = divmod(minor, 10 ** digits)
    return "%s%d.%0*d" % (sign, q, digits, r)


def fmt_number(minor, digits, dec, grp):
    sign = "-" if minor < 0 else ""
    minor = abs(minor)
    if digits == 0:
        return sign + group(minor, grp)
    q, r = divmod(minor, 10 ** digits)
    return "%s%s%s%0*d" % (sign, group(q, grp), dec, digits, r)


def random_minor(rng, style, big=None):
    iso, _, _, _, grp, digits = STYLES[style]
    if big is None:
        # grouping separators only show with >= 1000: force them often for
        # styles whose point is the separator
        big = rng.random() < (0.5 if grp in ("'", " ") else 0.12)
    if digits == 0:
        if iso == "KRW":
            return rng.randrange(10, 500) * 100 if not big else rng.randrange(100, 990) * 100
        if big:
            return rng.randrange(100, 999) * 10 + rng.choice([0, 0, 0, 8, 5])
        return rng.randrange(12, 99) * 10 + rng.choice([0, 0, 8, 5, 9])
    if big:
        return rng.randrange(1000, 9999) * 100 + rng.choice([0, 50, 99, 90, 49, rng.randrange(100)])
    cents = rng.choice([99, 49, 90, 50, 29, 95, 0, 19, rng.randrange(100)])
    return rng.randrange(0, 60) * 100 + cents if rng.random() < 0.8 else rng.randrange(60, 400) * 100 + cents


def make_price(rng, style, minor=None, big=None):
    iso, pre, suf, dec, grp, digits = STYLES[style]
    if minor is None:
        minor = random_minor(rng, style, big)
        if minor < 10 ** digits // 10 or minor == 0:
            minor += 10 ** digits  # never a zero price
    text = pre + fmt_number(minor, digits, dec, grp) + suf
    return {"text": text, "amount": fmt_amount(minor, digits), "currency": iso, "minor": minor,
            "digits": digits}


def weighted_style(rng, exclude=()):
    items = [(k, w) for k, w in STYLE_WEIGHTS.items() if k not in exclude]
    total = sum(w for _, w in items)
    x = rng.random() * total
    for k, w in items:
        x -= w
        if x < 0:
            return k
    return items[-1][0]


# ---------------------------------------------------------------- words ----

ITEMS = ["Coffee", "Brot", "Milch", "Tea", "Butter", "Apples", "Bananas", "Cheese", "Kaffee",
         "Orangen", "Croissant", "Muesli", "Yogurt", "Honey", "Pasta", "Rice", "Tomatoes",
         "Chocolate", "Water", "Juice", "Eggs", "Salami", "Bagel", "Donut", "Sandwich",
         "Espresso", "Latte", "Cookies", "Noodles", "Cereal", "Olive Oil", "Bread Rolls",
         "Avocado", "Lemonade", "Granola", "Mango", "Pretzel", "Soup", "Salad", "Muffin"]
WORDS = ["SALE", "Fresh", "Bio", "Angebot", "NEW", "Special offer", "Today", "Organic",
         "Bakery", "Deli", "Hot drinks", "Menu", "Frisch", "Regional", "Snacks", "Drinks",
         "Best seller", "Sonderangebot", "Market", "Local"]
TAG_WORDS = ["per piece", "each", "pro Stueck", "Aktion", "Price", "Preis", "only", "now"]
STORES = ["MARKT", "FRISCHMARKT", "CORNER SHOP", "BAECKEREI", "CITY MARKET", "SUPERMARKT",
          "GROCERY", "KIOSK"]


# ------------------------------------------------------------ drawing ----

def clamp(v, lo=0, hi=255):
    return lo if v < lo else hi if v > hi else int(v)


def smooth_field(rng, w, h, cells, amp):
    """Low-frequency random field around 128 (L image), bicubic-upscaled."""
    cw, ch = max(2, cells), max(2, cells * h // w)
    small = Image.new("L", (cw, ch))
    small.putdata([clamp(128 + rng.uniform(-amp, amp)) for _ in range(cw * ch)])
    return small.resize((w, h), Image.BICUBIC)


def add_field(img, field):
    """img + (field - 128), channel-wise, clipped."""
    if img.mode == "RGB":
        field = Image.merge("RGB", (field, field, field))
    return ImageChops.add(img, field, 1.0, -128)


def linear_gradient(w, h, angle, v0, v1):
    """L image going from v0 to v1 along direction angle (radians)."""
    g = Image.linear_gradient("L")  # 256x256, top 0 -> bottom 255
    g = g.resize((256, 256))
    g = g.rotate(-math.degrees(angle) + 90, resample=Image.BICUBIC, expand=True)
    # crop the central part and stretch to w, h; then remap 0..255 -> v0..v1
    gw, gh = g.size
    side = 181  # ~256/sqrt(2): inside the rotated square for any angle
    box = ((gw - side) // 2, (gh - side) // 2, (gw + side) // 2, (gh + side) // 2)
    g = g.crop(box).resize((w, h), Image.BICUBIC)
    lut = [clamp(v0 + (v1 - v0) * i / 255.0) for i in range(256)]
    return g.point(lut)


def gray(v):
    return (v, v, v)


def paper_background(rng, w, h, color=None, texture=True, blotch=(6, 12)):
    """Light background with a gradient and soft blotches."""
    if color is None:
        base = rng.randint(200, 228)
        color = gray(base)
    img = Image.new("RGB", (w, h), color)
    grad = linear_gradient(w, h, rng.uniform(0, 2 * math.pi), 128 - rng.randint(6, 16),
                           128 + rng.randint(4, 12))
    img = add_field(img, grad)
    if texture:
        # blotches only; fine grain would triple the PNG sizes (the noise family has it)
        img = add_field(img, smooth_field(rng, w, h, rng.randint(6, 12), rng.uniform(*blotch)))
    return img


def vignette(rng, img, strength):
    w, h = img.size
    m = Image.radial_gradient("L").resize((w, h), Image.BICUBIC)  # 0 centre .. 255 edge
    lut = [clamp(255 - strength * max(0, (i - 110)) / 145.0) for i in range(256)]
    m = m.point(lut)
    if img.mode == "RGB":
        m = Image.merge("RGB", (m, m, m))
    return ImageChops.multiply(img, m)


def text_size(draw, txt, f):
    l, t, r, b = draw.textbbox((0, 0), txt, font=f, anchor="ls")
    return r - l, t, b  # width, top (negative, above baseline), bottom


def fit_font(draw, name, size, txt, max_w, min_size=8):
    while size > min_size:
        w, _, _ = text_size(draw, txt, font(name, size))
        if w <= max_w:
            break
        size -= 1
    return size


def number_box(draw, xy, line, num, f):
    """textbbox of `num`, the end of `line` drawn at xy (anchor ls, monospace font):
    the number starts one advance per preceding character after xy."""
    assert line.endswith(num), (line, num)
    x = xy[0] + f.getlength(line[: len(line) - len(num)])
    box = draw.textbbox((x, xy[1]), num, font=f, anchor="ls")
    whole = draw.textbbox(xy, line, font=f, anchor="ls")
    assert abs(box[2] - whole[2]) <= 1 and box[1] >= whole[1] and box[3] <= whole[3], (line, box, whole)
    return box


def cap_height(name, size):
    f = font(name, size)
    l, t, r, b = f.getbbox("H", anchor="ls")
    return -t


# ------------------------------------------------------------- scenes ----
# Each scene renders an RGB image and returns (img, prices, total_amount).
# `scale` shrinks the text (family "small"); `colour` allows coloured output.

def scene_frame(rng, w, h, scale=1.0, colour=False, style=None):
    img = paper_background(rng, w, h)
    draw = ImageDraw.Draw(img)
    style = style or weighted_style(rng)
    n = rng.choice([1, 2, 2, 3, 3, 4, 4])
    k = 1 if w <= 700 else 1.6
    price_size = int(rng.randint(38, 50) * k * scale)
    name_size = max(13, int(rng.randint(30, 36) * k * scale))
    word_size = max(13, int(rng.randint(28, 34) * k * scale))
    pfont = pick_font(rng, PRICE_FONTS, "0")
    tfont = rng.choice(TEXT_FONTS)
    ink = gray(rng.randint(10, 45))
    accent = ink
    if colour:
        accent = rng.choice([(180, 20, 20), (20, 40, 140), (0, 90, 30)])
    margin_x, margin_y = int(w * 0.09), int(h * 0.09)

    # banner with 1-2 non-price words
    words = rng.sample(WORDS, rng.choice([1, 2]))
    banner = "  ".join(words)
    y = margin_y
    f = font(tfont, word_size)
    bw, bt, bb = text_size(draw, banner, f)
    bx = margin_x + rng.randint(0, max(0, (w - 2 * margin_x - bw) // 2))
    draw.text((bx, y - bt), banner, font=f, fill=ink, anchor="ls")
    y += bb - bt + int(word_size * 0.9)

    # grid of cards
    cols = 1 if n == 1 else 2
    rows = (n + cols - 1) // cols
    avail_h = h - margin_y - y
    cell_w = (w - 2 * margin_x) // cols
    cell_h = avail_h // rows
    names = rng.sample(ITEMS, n)
    prices = []
    card_fill = gray(clamp(img.getpixel((w // 2, h // 2))[0] + rng.randint(14, 26)))
    if colour:
        card_fill = rng.choice([(255, 236, 120), (255, 255, 255), (210, 235, 255)])
    # cards of one row share a top edge (a shelf row): staggered cards make
    # psm 6 merge lines across columns, which is not what the clean set tests
    row_dy = [rng.random() for _ in range(rows)]
    for i in range(n):
        r, c = divmod(i, cols)
        cx0 = margin_x + c * cell_w
        cy0 = y + r * cell_h
        p = make_price(rng, style)
        prices.append(p)
        pf = pick_font(rng, [pfont] + PRICE_FONTS, p["text"], bold=True)
        ps = fit_font(draw, pf, price_size, p["text"], cell_w - 30)
        ns = fit_font(draw, tfont, name_size, names[i], cell_w - 30)
        pw, pt, pb = text_size(draw, p["text"], font(pf, ps))
        nw, nt, nb = text_size(draw, names[i], font(tfont, ns))
        block_h = (nb - nt) + int(ns * 0.35) + (pb - pt)
        block_w = max(pw, nw)
        ox = cx0 + rng.randint(5, max(5, cell_w - block_w - 25))
        oy = cy0 + int(row_dy[r] * max(0, cell_h - block_h - int(cell_h * 0.25)))
        pad = int(12 * scale) + 6
        if rng.random() < 0.8:
            draw.rectangle((ox - pad, oy - pad, ox + block_w + pad, oy + block_h + pad),
                           fill=card_fill, outline=gray(clamp(card_fill[0] - 40)) if not colour else None)
        draw.text((ox, oy - nt), names[i], font=font(tfont, ns), fill=ink, anchor="ls")
        py = oy + (nb - nt) + int(ns * 0.35)
        draw.text((ox, py - pt), p["text"], font=font(pf, ps), fill=accent, anchor="ls")
        p["box"] = draw.textbbox((ox, py - pt), p["text"], font=font(pf, ps), anchor="ls")
    img = vignette(rng, img, rng.randint(20, 45))
    total = max(prices, key=lambda p: p["minor"] / 10 ** p["digits"])
    return img, prices, total["amount"]


def scene_tag(rng, w=320, h=200, scale=1.0, colour=False, style=None):
    bg = gray(rng.randint(225, 245))
    if colour:
        bg = rng.choice([(255, 220, 60), (255, 250, 235), (255, 200, 200)])
    img = paper_background(rng, w, h, color=bg)
    draw = ImageDraw.Draw(img)
    ink = gray(rng.randint(5, 35))
    accent = (200, 10, 10) if colour and bg[0] > 250 else ink
    style = style or weighted_style(rng)
    p = make_price(rng, style)
    name = rng.choice(ITEMS)
    sub = rng.choice(TAG_WORDS)
    tfont = rng.choice(TEXT_FONTS)
    pf = pick_font(rng, PRICE_FONTS, p["text"], bold=True)
    mx = int(w * 0.08)
    ns = fit_font(draw, tfont, int(rng.randint(26, 32) * scale * w / 320), name, w - 2 * mx)
    ps = fit_font(draw, pf, int(rng.randint(54, 66) * scale * w / 320), p["text"], w - 2 * mx)
    ss = int(ns * 0.8)
    # border strip like a shelf label
    if rng.random() < 0.7:
        draw.rectangle((0, 0, w - 1, int(h * 0.06)), fill=gray(clamp(bg[0] - 90)) if not colour else (200, 30, 30))
    y = int(h * 0.14)
    nw, nt, nb = text_size(draw, name, font(tfont, ns))
    draw.text((mx, y - nt), name, font=font(tfont, ns), fill=ink, anchor="ls")
    y += nb - nt + int(ns * 0.25)
    sw, st, sb = text_size(draw, sub, font(tfont, ss))
    draw.text((mx, y - st), sub, font=font(tfont, ss), fill=ink, anchor="ls")
    y += sb - st + int(ss * 0.4)
    pw, pt, pb = text_size(draw, p["text"], font(pf, ps))
    px = w - mx - pw if rng.random() < 0.6 else mx
    py = min(y, h - int(h * 0.08) - (pb - pt))
    draw.text((px, py - pt), p["text"], font=font(pf, ps), fill=accent, anchor="ls")
    p["box"] = draw.textbbox((px, py - pt), p["text"], font=font(pf, ps), anchor="ls")
    return img, [p], p["amount"]


RECEIPT_STYLES = [
    # (currency, decimal sep, total label, how the total is written)
    ("EUR", ",", "SUMME", "bare"), ("EUR", ",", "SUMME", "iso"), ("EUR", ",", "TOTAL", "suffix"),
    ("USD", ".", "TOTAL", "bare"), ("USD", ".", "TOTAL", "symbol"), ("GBP", ".", "TOTAL", "symbol"),
    ("CHF", ".", "TOTAL", "iso"), ("PLN", ",", "SUMA", "suffix"),
]


def receipt_total_text(cur, how, minor):
    if how == "bare":
        style = "eur-de" if cur == "EUR" else "usd"
        _, _, _, dec, grp, digits = STYLES[style]
        return fmt_number(minor, 2, dec, grp), None
    style = {("EUR", "iso"): "eur-iso", ("EUR", "suffix"): "eur-de", ("USD", "symbol"): "usd",
             ("GBP", "symbol"): "gbp", ("CHF", "iso"): "chf", ("PLN", "suffix"): "pln-after"}[(cur, how)]
    return make_price(None, style, minor=minor)["text"], cur


def scene_receipt(rng, scale=1.0, colour=False):
    cur, dec, label, how = rng.choice(RECEIPT_STYLES)
    mf = rng.choice(MONO_FONTS)
    size = int(rng.randint(28, 31) * scale)
    f = font(mf, size)
    chars = rng.randint(22, 26)
    cw = f.getlength("0")
    mx = int(size * 0.9)
    w = int(chars * cw + 2 * mx)
    n = rng.randint(3, 7)
    lines = []  # (text, "total" or None)
    line_price = {}  # index in lines -> the price dict whose text ends that line
    store = rng.choice(STORES)
    lines.append((store.center(chars).rstrip(), None))
    lines.append(("", None))
    items = rng.sample(ITEMS, n)
    prices = []
    sum_minor = 0
    for it in items:
        minor = rng.choice([rng.randrange(19, 499), rng.randrange(50, 1299)])
        sum_minor += minor
        num = fmt_number(minor, 2, dec, "")
        label_txt = it[: chars - len(num) - 1]
        lines.append((label_txt + " " * (chars - len(label_txt) - len(num)) + num, None))
        prices.append({"text": num, "amount": fmt_amount(minor, 2), "currency": None, "minor": minor,
                       "digits": 2})
        line_price[len(lines) - 1] = prices[-1]
    if rng.random() < 0.3 and sum_minor > 200:
        disc = -rng.choice([10, 20, 30, 50])
        sum_minor += disc
        num = fmt_number(disc, 2, dec, "")
        lab = rng.choice(["Rabatt", "Discount", "Coupon"])
        lines.append((lab + " " * (chars - len(lab) - len(num)) + num, None))
        prices.append({"text": num, "amount": fmt_amount(disc, 2), "currency": None, "minor": disc,
                       "digits": 2})
        line_price[len(lines) - 1] = prices[-1]
    lines.append(("-" * chars, None))
    ttxt, tcur = receipt_total_text(cur, how, sum_minor)
    lines.append((label + " " * max(1, chars - len(label) - len(ttxt)) + ttxt, "total"))
    total = {"text": ttxt, "amount": fmt_amount(sum_minor, 2), "currency": tcur, "minor": sum_minor,
             "digits": 2}
    prices.append(total)
    line_price[len(lines) - 1] = total
    lines.append(("", None))
    lines.append((rng.choice(["THANK YOU", "VIELEN DANK", "Danke fuer Ihren Einkauf",
                              "Please come again"])[:chars].center(chars).rstrip(), None))
    lh = int(size * 1.35)
    h = lh * len(lines) + 2 * int(size * 0.9)
    paper = gray(rng.randint(222, 238))
    if colour:
        paper = (244, 240, 226)
    img = paper_background(rng, w, h, color=paper, blotch=(3, 6))
    draw = ImageDraw.Draw(img)
    ink = gray(rng.randint(15, 50))
    if colour:
        ink = (40, 30, 80)
    y = int(size * 0.9) + cap_height(mf, size)
    for li, (txt, kind) in enumerate(lines):
        ff = f
        if kind == "total" and (mf + "-bold") in FONT_FILES:
            ff = font(mf + "-bold", size)
        draw.text((mx, y), txt, font=ff, fill=ink, anchor="ls")
        if li in line_price:
            line_price[li]["box"] = number_box(draw, (mx, y), txt, line_price[li]["text"], ff)
        y += lh
    return img, prices, total["amount"]


def scene_negative(rng, w, h):
    img = paper_background(rng, w, h)
    draw = ImageDraw.Draw(img)
    ink = gray(rng.randint(10, 45))
    tfont = rng.choice(TEXT_FONTS + ["mono"])
    things = [
        lambda: "%02d/%02d/%d" % (rng.randint(1, 28), rng.randint(1, 12), rng.randint(2015, 2024)),
        lambda: "%d-%02d-%02d" % (rng.randint(2015, 2024), rng.randint(1, 12), rng.randint(1, 28)),
        lambda: "%02d.%02d.%d" % (rng.randint(1, 28), rng.randint(1, 12), rng.randint(2015, 2024)),
        lambda: "%d:%02d" % (rng.randint(0, 23), rng.randint(0, 59)),
        lambda: "%d:%02d:%02d" % (rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)),
        lambda: "Tel. +49 %d %d" % (rng.randint(30, 89), rng.randint(1000000, 9999999)),
        lambda: "+44 20 %d %d" % (rng.randint(1000, 9999), rng.randint(1000, 9999)),
        lambda: "%d %%" % rng.choice([7, 19, 20, 25, 50]),
        lambda: "-%d%%" % rng.choice([10, 20, 30, 50]),
        lambda: "%d g" % rng.choice([100, 250, 500, 750]),
        lambda: "0,%d L" % rng.choice([2, 3, 5, 7]),
        lambda: "1,5 L",
        lambda: "%d pcs" % rng.randint(2, 12),
        lambda: "%d x %d cm" % (rng.randint(10, 60), rng.randint(10, 60)),
        lambda: "Art.-Nr. %d" % rng.randint(10000, 99999),
        lambda: "Gate B%d" % rng.randint(1, 40),
        lambda: "Room %d" % rng.randint(100, 420),
        lambda: "%d kcal" % rng.randint(80, 650),
    ]
    n = rng.randint(3, 5)
    k = 1 if w <= 700 else 1.5
    y = int(h * 0.1)
    mx = int(w * 0.09)
    rows = []
    for i in range(n):
        word = rng.choice(WORDS + ITEMS)
        thing = rng.choice(things)()
        rows.append(rng.choice(["%s  %s" % (word, thing), thing, "%s %s" % (thing, word)]))
    size = int(rng.randint(32, 40) * k)
    step = (h - 2 * y) // n
    for txt in rows:
        s = fit_font(draw, tfont, size, txt, w - 2 * mx)
        draw.text((mx + rng.randint(0, int(w * 0.1)), y + cap_height(tfont, s)), txt,
                  font=font(tfont, s), fill=ink, anchor="ls")
        y += step
    img = vignette(rng, img, rng.randint(15, 40))
    return img, [], None


# --------------------------------------------------------- degradations ----

def solve(A, b):
    """Gaussian elimination with partial pivoting (8x8 here)."""
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c:
                fct = M[r][c] / M[c][c]
                for k in range(c, n + 1):
                    M[r][k] -= fct * M[c][k]
    return [M[i][n] / M[i][i] for i in range(n)]


def perspective_coeffs(dst, src):
    """Coefficients for Image.transform(PERSPECTIVE): output point dst[i] samples src[i]."""
    A, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        A.append([x, y, 1, 0, 0, 0, -x * u, -y * u]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -x * v, -y * v]); b.append(v)
    return solve(A, b)


def perspective_point(c, x, y):
    """Apply PERSPECTIVE coefficients c to the point (x, y)."""
    a, b, cc, d, e, f, g, h = c
    z = g * x + h * y + 1
    return (a * x + b * y + cc) / z, (d * x + e * y + f) / z


def rotation_map(angle, w, h):
    """Source -> output point map of img.rotate(angle) (centre, no expand): the
    inverse of the affine matrix Image.rotate builds (output -> source)."""
    t = -math.radians(angle)
    a, b, d, e = (round(math.cos(t), 15), round(math.sin(t), 15),
                  round(-math.sin(t), 15), round(math.cos(t), 15))
    cx, cy = w / 2.0, h / 2.0
    c = a * -cx + b * -cy + cx
    f = d * -cx + e * -cy + cy
    det = a * e - b * d

    def fwd(x, y):
        u, v = x - c, y - f
        return (e * u - b * v) / det, (-d * u + a * v) / det
    return fwd


def map_box(box, fn):
    """Bounding box of the 4 corners of box (l, t, r, b) mapped through fn."""
    l, t, r, b = box
    pts = [fn(x, y) for x, y in ((l, t), (r, t), (r, b), (l, b))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def box_xywh(box, w, h):
    """(l, t, r, b) in float pixels -> [x, y, width, height] ints, rounded outwards,
    clipped to the w x h image."""
    l, t = math.floor(box[0] + 1e-6), math.floor(box[1] + 1e-6)
    r, b = math.ceil(box[2] - 1e-6), math.ceil(box[3] - 1e-6)
    if l < -1 or t < -1 or r > w + 1 or b > h + 1:
        print("gen-fixtures: warning: price box %s clipped to the %dx%d image" % ([l, t, r, b], w, h))
    l, t, r, b = max(0, l), max(0, t), min(w, r), min(h, b)
    return [l, t, r - l, b - t]


def border_fill(img):
    """Mean colour of the image border (fill for rotate/perspective)."""
    w, h = img.size
    pts = [img.getpixel((x, y)) for x in (1, w // 2, w - 2) for y in (1, h // 2, h - 2)]
    if img.mode == "L":
        return sum(pts) // len(pts)
    return tuple(sum(p[i] for p in pts) // len(pts) for i in range(3))


def add_noise(rng, img, sigma):
    w, h = img.size
    gauss = rng.gauss
    n = Image.new("L", (w, h))
    n.putdata([clamp(128 + gauss(0, sigma)) for _ in range(w * h)])
    return ImageChops.add(img, n, 1.0, -128)


def degrade(family, rng, img):
    """img is mode L. Returns (img, params dict for the README/debug)."""
    w, h = img.size
    if family == "blur":
        r = round(rng.uniform(1.0, 1.5), 2)
        return img.filter(ImageFilter.GaussianBlur(r)), {"radius": r}
    if family == "noise":
        s = round(rng.uniform(12, 20), 1)
        return add_noise(rng, img, s), {"sigma": s}
    if family == "lowcontrast":
        # squeeze the range so dark text sits only ~40-60 levels below the paper
        lo = rng.randint(120, 160)
        span = rng.randint(58, 78)
        lut = [clamp(lo + span * i / 255.0) for i in range(256)]
        return img.point(lut), {"range": [lo, lo + span]}
    if family == "shadow":
        dark = rng.uniform(0.30, 0.45)
        if rng.random() < 0.5:
            m = linear_gradient(w, h, rng.uniform(0, 2 * math.pi), 255, int(255 * dark))
            kind = "linear"
        else:
            m = Image.radial_gradient("L").resize((int(w * 1.6), int(h * 1.6)), Image.BICUBIC)
            ox, oy = rng.randint(0, int(w * 0.6)), rng.randint(0, int(h * 0.6))
            m = m.crop((ox, oy, ox + w, oy + h))
            lut = [clamp(255 - (255 - 255 * dark) * min(1.0, i / 200.0)) for i in range(256)]
            m = m.point(lut)
            if rng.random() < 0.5:
                m = m.point(lambda i: 255 - i + int(255 * dark))  # dark centre, bright edges
            kind = "radial"
        return ImageChops.multiply(img, m), {"shadow": kind, "darkest": round(dark, 2)}
    if family == "rotate":
        a = round(rng.choice([-1, 1]) * rng.uniform(2.0, 4.0), 2)
        return (img.rotate(a, resample=Image.BICUBIC, fillcolor=border_fill(img)),
                {"degrees": a, "map": rotation_map(a, w, h)})
    if family == "perspective":
        k = rng.uniform(0.05, 0.09)
        src = [(0, 0), (w, 0), (w, h), (0, h)]
        if rng.random() < 0.5:  # top edge further away
            dst = [(w * k, h * k * 0.4), (w * (1 - k), h * k * 0.4), (w, h), (0, h)]
        else:  # left edge further away
            dst = [(w * k * 0.4, h * k), (w, 0), (w, h), (w * k * 0.4, h * (1 - k))]
        c = perspective_coeffs(dst, src)
        out = img.transform((w, h), Image.PERSPECTIVE, c, Image.BICUBIC, fillcolor=border_fill(img))
        inv = perspective_coeffs(src, dst)  # source point src[i] lands on dst[i]
        return out, {"keystone": round(k, 3), "map": lambda x, y: perspective_point(inv, x, y)}
    if family == "jpeg":
        return img, {"quality": rng.randint(12, 25)}
    return img, {}


# ---------------------------------------------------------------- menus ----
# Restaurant menus in nine languages, as a traveller photographs them: dish then price at the
# row's end (right-aligned, sometimes with dot leaders), sizes on one row, a "market price"
# row with no number, section headers, and numbers that are not prices (dish numbers,
# calories, opening hours, a phone number, an address, a year). Each menu's currency prints
# the way its menus do: TWD, JPY, KRW, VND as bare whole numbers (TWD's CLDR cashDigits are 0),
# CNY with 元 or ¥, EUR with decimals. Truth: the prices drawn, in order.

MENU_LANGS = {
    # code: (currency, font, title, sections, dishes, market word, size words, footer, price form)
    "zh-Hant": ("TWD", "cjk", "老王牛肉麵館", ["主食", "小吃", "飲料"],
                ["牛肉麵", "滷肉飯", "小籠包", "蔥油餅", "酸辣湯", "炒青菜", "珍珠奶茶", "鍋貼", "排骨飯"],
                "時價", ("小", "大"), ["營業時間 11:00-21:00", "電話 02-2345-6789", "台北市信義路五段7號", "創業1998年"], "bare"),
    "zh-Hans": ("CNY", "cjk", "川味小馆", ["热菜", "主食", "汤类"],
                ["宫保鸡丁", "麻婆豆腐", "鱼香肉丝", "回锅肉", "酸辣汤", "扬州炒饭", "红烧肉", "水煮鱼", "蛋炒饭"],
                "时价", ("小份", "大份"), ["营业时间 10:30-22:00", "电话 010-6543-2100", "北京市朝阳路88号"], "yuan"),
    "ja": ("JPY", "cjk", "らーめん 一番", ["麺類", "ご飯もの", "飲み物"],
           ["醤油ラーメン", "味噌ラーメン", "餃子", "唐揚げ定食", "親子丼", "カレーライス", "枝豆", "生ビール", "天ぷらそば"],
           "時価", ("並", "大盛"), ["営業時間 11:00-23:00", "TEL 03-1234-5678", "東京都新宿区1-2-3"], "bare"),
    "ko": ("KRW", "cjk", "한우 식당", ["식사", "분식", "주류"],
           ["김치찌개", "된장찌개", "비빔밥", "불고기", "냉면", "떡볶이", "김밥", "소주", "제육볶음"],
           "시가", ("소", "대"), ["영업시간 10:00-22:00", "전화 02-123-4567", "서울시 중구 명동 12"], "bare"),
    "vi": ("VND", "sans", "Quán Phở Hà Nội", ["Món chính", "Món ăn nhẹ", "Đồ uống"],
           ["Phở bò tái", "Bún chả", "Bánh mì thịt", "Cơm tấm", "Gỏi cuốn", "Bún bò Huế", "Cà phê sữa đá", "Chè ba màu",
            "Nước mía"],
           "Thời giá", ("Nhỏ", "Lớn"), ["Mở cửa 6:00-22:00", "ĐT 024-3826-1234", "Số 12 phố Hàng Bạc"], "dong"),
    "fr": ("EUR", "sans", "Bistrot du Marché", ["Entrées", "Plats", "Desserts"],
           ["Soupe à l'oignon", "Croque-monsieur", "Steak frites", "Salade niçoise", "Crème brûlée", "Tarte tatin",
            "Café crème", "Confit de canard", "Moules marinières"],
           "Prix du marché", ("Verre", "Bouteille"), ["Ouvert 12:00-23:00", "Tél. 01 42 60 12 34", "Depuis 1998"], "euro"),
    "it": ("EUR", "sans", "Trattoria da Mario", ["Antipasti", "Primi", "Dolci"],
           ["Bruschetta", "Spaghetti carbonara", "Pizza margherita", "Lasagne al forno", "Risotto ai funghi", "Tiramisù",
            "Panna cotta", "Ossobuco", "Caffè"],
           "Prezzo di mercato", ("Piccola", "Grande"), ["Aperto 12:00-15:00", "Tel. 06 6880 1234", "Dal 1965"], "euro"),
    "es": ("EUR", "sans", "Taberna El Puerto", ["Entrantes", "Principales", "Postres"],
           ["Gazpacho", "Paella valenciana", "Tortilla española", "Croquetas", "Pulpo a la gallega", "Churros",
            "Café con leche", "Patatas bravas", "Flan casero"],
           "Según mercado", ("Tapa", "Ración"), ["Abierto 13:00-23:30", "Tel. 91 522 12 34", "Desde 1987"], "euro"),
    "el": ("EUR", "sans", "Ταβέρνα Το Λιμάνι", ["Ορεκτικά", "Κυρίως πιάτα", "Επιδόρπια"],
           ["Χωριάτικη σαλάτα", "Μουσακάς", "Σουβλάκι", "Γύρος", "Τζατζίκι", "Παστίτσιο", "Μπακλαβάς", "Ελληνικός καφές",
            "Γεμιστά"],
           "Τιμή ημέρας", ("Μικρό", "Μεγάλο"), ["Ανοιχτά 12:00-24:00", "Τηλ. 210 123 4567", "Από το 1975"], "euro"),
    # Menus that print prices as bare whole numbers in a currency with cents (no mark, no
    # decimals: `Schnitzel 16`), as many German, British and American menus do.
    "de": ("EUR", "lib-sans", "Gasthaus zur Linde", ["Vorspeisen", "Hauptgerichte", "Nachspeisen"],
           ["Kartoffelsuppe", "Wiener Schnitzel", "Sauerbraten", "Käsespätzle", "Rinderroulade", "Apfelstrudel",
            "Kaiserschmarrn", "Forelle blau", "Flammkuchen"],
           "Tagespreis", ("Klein", "Groß"), ["Geöffnet 11:30-22:00", "Tel. 089 123 4567", "Seit 1952"], "whole"),
    "en": ("USD", "lib-sans", "Harbor Street Diner", ["Starters", "Mains", "Desserts"],
           ["Clam chowder", "Caesar salad", "Cheeseburger", "Fish and chips", "Grilled salmon", "Mac and cheese",
            "Apple pie", "Chocolate cake", "Buffalo wings"],
           "Market price", ("Small", "Large"), ["Open daily 7:00-22:00", "Phone (415) 555-0134", "Since 1986"], "whole"),
}
# Languages added after the first nine, generated after them so that the first nine keep
# their seeds' order and their degradations (menu 2n + 2i), so their images stay the same.
MENU_LATE = ["de", "en"]
MENU_DEGRADE = [None, "perspective", "shadow", "blur", "jpeg"]


def menu_price(rng, form, cur):
    """(text drawn, amount) of one menu price in the menu's own form."""
    if cur == "TWD":
        v = rng.choice(range(40, 400, 5))
        return str(v), str(v)
    if cur == "JPY":
        v = rng.choice(range(300, 1600, 10))
        t = group(str(v), ",")
        return rng.choice([t, t, t + "円"]), str(v)
    if cur == "KRW":
        v = rng.choice(range(4000, 30000, 500))
        t = group(str(v), ",")
        return rng.choice([t, t, t + "원"]), str(v)
    if cur == "VND":
        v = rng.choice(range(15000, 120000, 5000))
        t = group(str(v), ".")
        return rng.choice([t, t + "đ", t + " đ"]), str(v)
    if cur == "CNY":
        v = rng.choice(range(12, 98))
        return rng.choice([str(v) + "元", "¥" + str(v)]), str(v)
    if form == "whole":
        v = rng.choice(range(5, 40))
        return str(v), str(v)
    minor = rng.choice(range(350, 3200, 50))
    t = fmt_number(minor, 2, ",", ".")
    return rng.choice([t, t, t + " €"]), fmt_amount(minor, 2)


def scene_menu(rng, lang):
    cur, fname, title, sections, dishes, market, sizes, footer, form = MENU_LANGS[lang]
    size = rng.randint(30, 36)
    f = font(fname, size)
    fb = font(fname + "-bold" if fname + "-bold" in FONT_FILES else fname, int(size * 1.25))
    w = 860
    mx = 50
    lh = int(size * 1.55)
    dish_order = rng.sample(dishes, len(dishes))
    rows = [("title", title)]
    numbered = lang in ("zh-Hant", "ja", "ko") and rng.random() < 0.5
    k = 0
    for si, sec in enumerate(sections):
        rows.append(("section", sec))
        for _ in range(3):
            rows.append(("dish", dish_order[k % len(dish_order)]))
            k += 1
        if si == 0:
            rows.append(("sizes", dish_order[k % len(dish_order)]))
            k += 1
        if si == 1:
            rows.append(("market", dish_order[k % len(dish_order)]))
            k += 1
    rows.append(("gap", ""))
    for line in footer:
        rows.append(("footer", line))
    h = lh * (len(rows) + 1) + 2 * mx
    paper = gray(rng.randint(228, 246))
    img = paper_background(rng, w, h, color=paper, blotch=(3, 6))
    draw = ImageDraw.Draw(img)
    ink = gray(rng.randint(15, 45))
    prices = []
    y = mx + lh
    for n, (kind, text) in enumerate(rows):
        if kind == "title":
            tw, _, _ = text_size(draw, text, fb)
            draw.text(((w - tw) // 2, y), text, font=fb, fill=ink, anchor="ls")
        elif kind == "section":
            draw.text((mx, y), text, font=fb, fill=ink, anchor="ls")
        elif kind in ("footer",):
            fs = font(fname, int(size * 0.8))
            draw.text((mx, y), text, font=fs, fill=ink, anchor="ls")
        elif kind == "market":
            draw.text((mx + size, y), text, font=f, fill=ink, anchor="ls")
            mw, _, _ = text_size(draw, market, f)
            draw.text((w - mx - mw, y), market, font=f, fill=ink, anchor="ls")
        elif kind == "dish":
            name = text
            if numbered:
                name = "%s%d. %s" % (rng.choice("ABC"), rng.randint(1, 30), name)
            if rng.random() < 0.25:
                name += " (%d kcal)" % rng.randrange(250, 900, 10)
            ptxt, amount = menu_price(rng, form, cur)
            draw.text((mx + size, y), name, font=f, fill=ink, anchor="ls")
            pw, _, _ = text_size(draw, ptxt, f)
            px = w - mx - pw
            if rng.random() < 0.4:  # dot leaders
                nw, _, _ = text_size(draw, name, f)
                dots = "." * max(0, int((px - (mx + size + nw) - size) / max(1, f.getlength("."))))
                draw.text((mx + size + nw + size // 2, y), dots, font=f, fill=ink, anchor="ls")
            draw.text((px, y), ptxt, font=f, fill=ink, anchor="ls")
            prices.append({"text": ptxt, "amount": amount, "currency": cur,
                           "box": draw.textbbox((px, y), ptxt, font=f, anchor="ls")})
        elif kind == "sizes":
            draw.text((mx + size, y), text, font=f, fill=ink, anchor="ls")
            parts = []
            for word in sizes:
                parts.append((word, menu_price(rng, form, cur)))
            # "S 120  L 150" right-aligned: each size word, then its price
            x = w - mx
            drawn = []
            for word, (ptxt, amount) in reversed(parts):
                pw, _, _ = text_size(draw, ptxt, f)
                x -= pw
                drawn.append((x, ptxt, amount))
                ww, _, _ = text_size(draw, word + " ", f)
                x -= ww
                draw.text((x, y), word + " ", font=f, fill=ink, anchor="ls")
                x -= size
            for px, ptxt, amount in reversed(drawn):
                draw.text((px, y), ptxt, font=f, fill=ink, anchor="ls")
                prices.append({"text": ptxt, "amount": amount, "currency": cur,
                               "box": draw.textbbox((px, y), ptxt, font=f, anchor="ls")})
        y += lh
    return img, prices, None


# ------------------------------------------------------- receipts-intl ----
# Till receipts in fourteen languages as their shops print them: item lines, a subtotal, the
# VAT line, the total (the amount to pay), cash handed over and the change, and a VAT table
# under the payment whose gross column repeats the total. Every amount drawn is in the truth;
# `total` is the amount to pay, which the parser must mark (`role: total`).

RECEIPT_LANGS = {
    # code: (currency, decimal sep, minor digits, subtotal, VAT word, total, cash, change, thanks,
    #        items, font)
    "de": ("EUR", ",", 2, "Zwischensumme", "MwSt", "SUMME", "Bar", "Rückgeld", "Vielen Dank",
           ["Milch", "Brot", "Butter", "Käse", "Äpfel", "Kaffee", "Joghurt"], "mono"),
    "fr": ("EUR", ",", 2, "Sous-total", "TVA", "TOTAL TTC", "Espèces", "Rendu", "Merci",
           ["Baguette", "Fromage", "Lait", "Beurre", "Pommes", "Café", "Yaourt"], "mono"),
    "es": ("EUR", ",", 2, "Subtotal", "IVA", "TOTAL A PAGAR", "Efectivo", "Cambio", "Gracias",
           ["Pan", "Leche", "Queso", "Aceite", "Tomates", "Café", "Huevos"], "mono"),
    "it": ("EUR", ",", 2, "Subtotale", "IVA", "TOTALE", "Contanti", "Resto", "Grazie",
           ["Pane", "Latte", "Formaggio", "Pasta", "Pomodori", "Caffè", "Uova"], "mono"),
    "nl": ("EUR", ",", 2, "Subtotaal", "BTW", "TE BETALEN", "Contant", "Wisselgeld", "Bedankt",
           ["Brood", "Melk", "Kaas", "Boter", "Appels", "Koffie", "Eieren"], "mono"),
    "pt": ("EUR", ",", 2, "Subtotal", "IVA", "TOTAL", "Dinheiro", "Troco", "Obrigado",
           ["Pão", "Leite", "Queijo", "Azeite", "Arroz", "Café", "Ovos"], "mono"),
    "pl": ("PLN", ",", 2, "Podsuma", "PTU", "SUMA PLN", "Gotówka", "Reszta", "Dziękujemy",
           ["Chleb", "Mleko", "Ser", "Masło", "Jabłka", "Kawa", "Jajka"], "mono"),
    "cs": ("CZK", ",", 2, "Mezisoučet", "DPH", "CELKEM", "Hotově", "Vráceno", "Děkujeme",
           ["Chléb", "Mléko", "Sýr", "Máslo", "Jablka", "Káva", "Vejce"], "mono"),
    "hu": ("HUF", ",", 0, "Részösszeg", "ÁFA", "ÖSSZESEN", "Készpénz", "Visszajáró", "Köszönjük",
           ["Kenyér", "Tej", "Sajt", "Vaj", "Alma", "Kávé", "Tojás"], "mono"),
    "tr": ("TRY", ",", 2, "Ara toplam", "KDV", "TOPLAM", "Nakit", "Para üstü", "Teşekkürler",
           ["Ekmek", "Süt", "Peynir", "Tereyağı", "Elma", "Kahve", "Yumurta"], "mono"),
    "en": ("USD", ".", 2, "Subtotal", "Tax", "TOTAL", "Cash", "Change", "Thank you",
           ["Milk", "Bread", "Cheese", "Butter", "Apples", "Coffee", "Eggs"], "mono"),
    "ms": ("MYR", ".", 2, "Subtotal", "SST", "JUMLAH", "Tunai", "Baki", "Terima kasih",
           ["Roti", "Susu", "Keju", "Mentega", "Epal", "Kopi", "Telur"], "mono"),
    "ru": ("RUB", ",", 2, "Подытог", "НДС", "ИТОГО", "Наличные", "Сдача", "Спасибо",
           ["Хлеб", "Молоко", "Сыр", "Масло", "Яблоки", "Кофе", "Яйца"], "mono"),
    "ja": ("JPY", ".", 0, "小計", "消費税", "合計", "お預り", "お釣り", "ありがとうございました",
           ["牛乳", "食パン", "チーズ", "バター", "りんご", "コーヒー", "卵"], "cjk"),
}
# VAT rates as printed (per cent): one rate per receipt
RECEIPT_VAT = {"EUR": 19, "PLN": 23, "CZK": 21, "HUF": 27, "TRY": 10, "USD": 8, "MYR": 6, "RUB": 20, "JPY": 10}


def scene_receipt_intl(rng, lang):
    cur, dec, digits, w_sub, w_vat, w_total, w_cash, w_change, thanks, items, fname = RECEIPT_LANGS[lang]
    size = rng.randint(26, 30)
    f = font(fname, size)
    fb = font(fname + "-bold" if fname + "-bold" in FONT_FILES else fname, size)
    chars = 30
    cw = f.getlength("0")
    mx = int(size * 0.9)
    w = int(chars * cw + 2 * mx) if fname == "mono" else int(chars * size * 0.62 + 2 * mx)
    unit = 10 ** digits

    def money(minor):
        return fmt_number(minor, digits, dec, "")

    rows = []  # (left text, number text or None, amount or None, bold)
    gross = 0
    for name in rng.sample(items, rng.randint(3, 6)):
        # cents 0.59-9.99; whole-number currencies as shops price them (JPY 80-790, HUF 190-3990)
        minor = rng.randrange(59, 999) if digits else rng.randrange(8, 80) * 10 if cur == "JPY" else rng.randrange(19, 400) * 10
        gross += minor
        rows.append((name, money(minor), fmt_amount(minor, digits), False))
    rate = RECEIPT_VAT[cur]
    # prices include VAT (EU, JP, RU, TR, MY) or add it (US): the total is what is paid
    if cur == "USD":
        net = gross
        tax = (net * rate + 50) // 100
        total = net + tax
    else:
        total = gross
        net = (total * 100 + (100 + rate) // 2) // (100 + rate)
        tax = total - net
    rows.append(("-" * chars, None, None, False))
    rows.append((w_sub, money(gross if cur != "USD" else net), fmt_amount(gross if cur != "USD" else net, digits), False))
    rows.append(("%s %d%%" % (w_vat, rate), money(tax), fmt_amount(tax, digits), False))
    rows.append((w_total, money(total), fmt_amount(total, digits), True))
    paid = ((total // (10 * unit)) + 1) * 10 * unit if digits else ((total // 1000) + 1) * 1000
    if rng.random() < 0.3:
        paid = ((total // (50 * unit)) + 1) * 50 * unit if digits else ((total // 5000) + 1) * 5000
    rows.append((w_cash, money(paid), fmt_amount(paid, digits), False))
    rows.append((w_change, money(paid - total), fmt_amount(paid - total, digits), False))
    rows.append(("", None, None, False))
    # the VAT table: rate, net, tax, gross (the gross repeats the total)
    rows.append(("%s %d%%  %s  %s" % (w_vat, rate, money(net), money(tax)), money(total), None, False))
    rows.append(("", None, None, False))
    rows.append((thanks, None, None, False))
    lh = int(size * 1.4)
    h = lh * (len(rows) + 2) + 2 * mx
    paper = gray(rng.randint(226, 242))
    img = paper_background(rng, w, h, color=paper, blotch=(3, 6))
    draw = ImageDraw.Draw(img)
    ink = gray(rng.randint(15, 50))
    prices = []
    y = mx + lh
    store = rng.choice(STORES)
    sw, _, _ = text_size(draw, store, fb)
    draw.text(((w - sw) // 2, y), store, font=fb, fill=ink, anchor="ls")
    y += 2 * lh
    for left, num, amount, bold in rows:
        ff = fb if bold else f
        if left.startswith(w_vat + " ") and num and amount is None:
            # the VAT table row: its net and tax figures are amounts too, drawn in the row text
            parts = left.split("  ")
            x = mx
            for k, part in enumerate(parts):
                draw.text((x, y), part, font=ff, fill=ink, anchor="ls")
                if k > 0:
                    val = part
                    prices.append({"text": val, "amount": fmt_amount(net if k == 1 else tax, digits), "currency": None,
                                   "box": draw.textbbox((x, y), val, font=ff, anchor="ls")})
                pw, _, _ = text_size(draw, part + "  ", ff)
                x += pw
            amount = fmt_amount(total, digits)
        else:
            draw.text((mx, y), left, font=ff, fill=ink, anchor="ls")
        if num:
            nw, _, _ = text_size(draw, num, ff)
            px = w - mx - nw
            draw.text((px, y), num, font=ff, fill=ink, anchor="ls")
            prices.append({"text": num, "amount": amount, "currency": None,
                           "box": draw.textbbox((px, y), num, font=ff, anchor="ls")})
        y += lh
    return img, prices, fmt_amount(total, digits)


def gen_receipts_intl(out):
    # degraded in turn by none, perspective, shadow, blur, JPEG: receipt 2n + i
    return gen_per_language(out, "receipts-intl", RECEIPT_LANGS, scene_receipt_intl, lambda n, i: 2 * n + i)


def gen_per_language(out, family, langs, scene, degraded):
    """Two images per language of `langs` (code -> table whose first field is the currency),
    each rendered by scene(rng, lang), degraded by MENU_DEGRADE[degraded(n, i)]."""
    d = os.path.join(out, family)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    gt = {}
    late = [l for l in MENU_LATE if l in langs]
    for n, lang in enumerate([l for l in sorted(langs) if l not in late] + late):
        for i in range(2):
            rng = random.Random("%s:%s:%s:%d" % (SEED, family, lang, i))
            img, prices, total = scene(rng, lang)
            boxes = [p["box"] for p in prices]
            img = img.convert("L")
            how = MENU_DEGRADE[degraded(n, i) % len(MENU_DEGRADE)]
            params = {}
            if how:
                img, params = degrade(how, rng, img)
            if "map" in params:
                boxes = [map_box(bx, params["map"]) for bx in boxes]
            ext = "jpg" if how == "jpeg" else "png"
            name = "%s_%d.%s" % (lang, i + 1, ext)
            path = os.path.join(d, name)
            if how == "jpeg":
                img.save(path, "JPEG", quality=max(30, params["quality"] * 2), optimize=False, progressive=False)
            else:
                img.save(path, "PNG", compress_level=9)
            e = gt_entry(prices, total, [box_xywh(bx, img.width, img.height) for bx in boxes])
            e["currency"] = langs[lang][0]
            e["language"] = lang
            gt[name] = e
    return write_gt(d, gt)


def write_gt(d, gt):
    """gt.json of one family: one image per line, keys sorted; returns the image count."""
    with open(os.path.join(d, "gt.json"), "w", encoding="utf-8") as fh:
        fh.write("{\n")
        keys = sorted(gt)
        for j, k in enumerate(keys):
            fh.write(" %s: %s%s\n" % (json.dumps(k), json.dumps(gt[k], ensure_ascii=False),
                                      "," if j + 1 < len(keys) else ""))
        fh.write("}\n")
    return len(gt)


def gen_menus(out):
    # degraded in turn by none, perspective, shadow, blur, JPEG: menu 2n + 2i
    return gen_per_language(out, "menus", MENU_LANGS, scene_menu, lambda n, i: 2 * n + 2 * i)


# ------------------------------------------------------------- families ----

CLEAN_KINDS = (["frame640"] * 12 + ["frame1280"] * 8 + ["tag"] * 10 + ["receipt"] * 10)
DEGRADED_KINDS = ["frame640", "frame1280", "tag", "receipt", "frame640", "tag", "receipt",
                  "frame640", "frame1280", "tag", "receipt", "frame640", "tag", "receipt",
                  "frame640", "frame1280", "tag", "receipt"]
# noise does not compress: keep that family at 640x480 and smaller
NOISE_KINDS = [k if k != "frame1280" else "frame640" for k in DEGRADED_KINDS]
DEGRADED = ["blur", "noise", "lowcontrast", "shadow", "small", "jpeg", "rotate", "perspective"]
RGB_CLEAN = {5, 17, 23, 33}  # indexes of clean images kept in colour


def render_kind(kind, rng, scale=1.0, colour=False, style=None):
    if kind == "frame640":
        return scene_frame(rng, 640, 480, scale, colour, style)
    if kind == "frame1280":
        return scene_frame(rng, 1280, 720, scale, colour, style)
    if kind == "tag":
        return scene_tag(rng, 320, 200, scale, colour, style)
    if kind == "receipt":
        return scene_receipt(rng, scale, colour)
    raise ValueError(kind)


PREFIX = {"frame640": "frame", "frame1280": "frame", "tag": "tag", "receipt": "receipt"}


def gt_entry(prices, total, boxes):
    return {"total": total, "amounts": [p["amount"] for p in prices],
            "currencies": [p["currency"] for p in prices], "texts": [p["text"] for p in prices],
            "boxes": boxes}


def gen_family(family, out):
    d = os.path.join(out, family)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    gt = {}
    if family == "negatives":
        for i in range(12):
            rng = random.Random("%s:%s:%d" % (SEED, family, i))
            w, h = (640, 480) if i % 3 else (1280, 720)
            img, prices, total = scene_negative(rng, w, h)
            name = "neg_%04d.png" % (i + 1)
            img.convert("L").save(os.path.join(d, name), "PNG", compress_level=9)
            gt[name] = {"total": None, "amounts": [], "currencies": [], "texts": [], "boxes": []}
    else:
        kinds = (CLEAN_KINDS if family == "clean" else NOISE_KINDS if family == "noise"
                 else SYMBOL_KINDS if family == "symbols" else DEGRADED_KINDS)
        # every price style appears: frames and tags walk a seeded shuffle of STYLES
        order = sorted(EXOTIC_STYLES) if family == "symbols" else sorted(set(STYLES) - EXOTIC_STYLES)
        random.Random("%s:%s:styles" % (SEED, family)).shuffle(order)
        counters = {}
        j = 0
        for i, kind in enumerate(kinds):
            rng = random.Random("%s:%s:%d" % (SEED, family, i))
            style = None
            if kind != "receipt":
                style = order[j % len(order)]
                j += 1
            colour = family == "clean" and i in RGB_CLEAN
            scale = 1.0
            shrink = None
            if family == "small":
                # price cap height ~9-13 px (x-height ~7-10 px): frames keep their
                # size and get smaller fonts; tags and receipts are rendered as
                # usual and scaled down (a crop of a distant tag / receipt)
                if kind.startswith("frame"):
                    scale = {"frame640": 0.34, "frame1280": 0.22}[kind] * rng.uniform(0.95, 1.15)
                else:
                    shrink = {"tag": 0.24, "receipt": 0.52}[kind] * rng.uniform(0.95, 1.15)
            img, prices, total = render_kind(kind, rng, scale, colour, style)
            boxes = [p["box"] for p in prices]  # (l, t, r, b) where the price was drawn
            if shrink:
                ow, oh = img.size
                img = img.resize((round(img.width * shrink), round(img.height * shrink)), Image.LANCZOS)
                sx, sy = img.width / ow, img.height / oh
                boxes = [(l * sx, t * sy, r * sx, b * sy) for l, t, r, b in boxes]
            if not colour:
                img = img.convert("L")
            img, params = degrade(family, rng, img)
            if "map" in params:
                boxes = [map_box(bx, params["map"]) for bx in boxes]
            pre = PREFIX[kind]
            counters[pre] = counters.get(pre, 0) + 1
            ext = "jpg" if family == "jpeg" else "png"
            name = "%s_%04d.%s" % (pre, counters[pre], ext)
            path = os.path.join(d, name)
            if family == "jpeg":
                img.save(path, "JPEG", quality=params["quality"], optimize=False, progressive=False)
            else:
                img.save(path, "PNG", compress_level=9)
            gt[name] = gt_entry(prices, total, [box_xywh(bx, img.width, img.height) for bx in boxes])
    return write_gt(d, gt)


SYMBOL_KINDS = ["frame640", "frame1280", "tag"] * 4
FAMILIES = ["clean"] + DEGRADED + ["symbols", "negatives", "menus", "receipts-intl"]


def check_family(d, psm):
    """Legibility check only (never writes gt.json): run the tesseract CLI on
    the luma of every image and count price strings found verbatim."""
    import io
    import subprocess
    from concurrent.futures import ThreadPoolExecutor
    if not shutil.which("tesseract"):
        sys.exit("gen-fixtures: --check needs the tesseract CLI (sudo scripts/bootstrap.sh --fixtures)")
    with open(os.path.join(d, "gt.json"), encoding="utf-8") as fh:
        gt = json.load(fh)
    env = dict(os.environ, OMP_THREAD_LIMIT="1")

    def ocr(name):
        buf = io.BytesIO()
        Image.open(os.path.join(d, name)).convert("L").save(buf, "PNG")  # the pipeline reads luma
        r = subprocess.run(["tesseract", "stdin", "-", "--psm", str(psm)], input=buf.getvalue(),
                           capture_output=True, env=env)
        return name, " ".join(r.stdout.decode("utf-8", "replace").split())

    names = [n for n in sorted(gt) if gt[n].get("texts")]
    img_ok = img_loose = p_ok = p_loose = p_all = 0
    with ThreadPoolExecutor(max(1, min(4, os.cpu_count() or 1))) as ex:
        for name, text in ex.map(ocr, names):
            texts = gt[name]["texts"]
            squeezed = text.replace(" ", "")
            exact = [t for t in texts if t in text]
            loose = [t for t in texts if t.replace(" ", "") in squeezed]
            p_all += len(texts)
            p_ok += len(exact)
            p_loose += len(loose)
            img_ok += len(exact) == len(texts)
            img_loose += len(loose) == len(texts)
            if len(exact) != len(texts):
                print("  %-18s missing %s | ocr: %s" % (name, [t for t in texts if t not in exact], text[:160]))
    print("%s: psm %s: images with every price exact %d/%d (ignoring spaces %d/%d); "
          "prices exact %d/%d (ignoring spaces %d/%d)"
          % (d, psm, img_ok, len(names), img_loose, len(names), p_ok, p_all, p_loose, p_all))


def check_boxes(d, draw_dir=None):
    """Check gt.json "boxes" of one family: one per amount, non-empty, inside the
    image. With draw_dir, draw them (red) onto the first image of each kind."""
    with open(os.path.join(d, "gt.json"), encoding="utf-8") as fh:
        gt = json.load(fh)
    fam = os.path.basename(os.path.normpath(d))
    bad, n, drawn = [], 0, set()
    for name in sorted(gt):
        e = gt[name]
        boxes = e.get("boxes")
        if boxes is None or len(boxes) != len(e["amounts"]):
            bad.append("%s: %s boxes for %d amounts" % (name, None if boxes is None else len(boxes),
                                                         len(e["amounts"])))
            continue
        img = Image.open(os.path.join(d, name))
        w, h = img.size
        for bx in boxes:
            n += 1
            x, y, bw, bh = bx
            if not (len(bx) == 4 and bw > 0 and bh > 0 and x >= 0 and y >= 0 and x + bw <= w and y + bh <= h):
                bad.append("%s: box %s outside %dx%d" % (name, bx, w, h))
        kind = name.split("_")[0]
        if draw_dir and boxes and kind not in drawn:
            drawn.add(kind)
            im = img.convert("RGB")
            dr = ImageDraw.Draw(im)
            for x, y, bw, bh in boxes:
                dr.rectangle((x, y, x + bw - 1, y + bh - 1), outline=(255, 0, 0))
            os.makedirs(draw_dir, exist_ok=True)
            im.save(os.path.join(draw_dir, "%s_%s.png" % (fam, os.path.splitext(name)[0])))
    for b in bad:
        print("  " + b)
    print("%s: %d boxes in %d images, %d problems" % (d, n, len(gt), len(bad)))
    return not bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(here), "Fixtures"))
    ap.add_argument("--only", nargs="*", choices=FAMILIES)
    ap.add_argument("--check", nargs="*", choices=FAMILIES, metavar="FAMILY",
                    help="do not generate; run tesseract on these families (default clean) "
                         "and report how many rendered price strings it reads exactly")
    ap.add_argument("--psm", default="6", help="page segmentation mode for --check")
    ap.add_argument("--boxes", nargs="*", choices=FAMILIES, metavar="FAMILY",
                    help="do not generate; check gt.json boxes of these families (default all): "
                         "one per amount, inside the image; exit 1 on a problem")
    ap.add_argument("--draw", metavar="DIR",
                    help="with --boxes: draw the boxes onto the first image of each kind into DIR")
    a = ap.parse_args()
    if a.boxes is not None:
        ok = [check_boxes(os.path.join(a.out, fam), a.draw) for fam in a.boxes or FAMILIES]
        sys.exit(0 if all(ok) else 1)
    if a.check is not None:
        for fam in a.check or ["clean"]:
            check_family(os.path.join(a.out, fam), a.psm)
        return
    check_fonts()
    for fam in a.only or FAMILIES:
        n = {"menus": gen_menus, "receipts-intl": gen_receipts_intl}.get(fam, gen_family)(
            a.out) if fam in ("menus", "receipts-intl") else gen_family(fam, a.out)
        print("%-12s %3d images" % (fam, n))


if __name__ == "__main__":
    main()
