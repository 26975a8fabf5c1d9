#!/usr/bin/python3
"""Perturbed copies of an evaluation set, for the robustness benchmark.

Usage: perturb.py SRC_SET DEST_DIR [--only NAME,NAME] [--jobs N]

SRC_SET is a folder with gt.json and its images (under SRC_SET/img/ when that folder
exists, else beside gt.json, as `pricecam eval` reads it). For each perturbation this
writes DEST_DIR/<name>/img/ and DEST_DIR/<name>/gt.json: every image gt.json names,
perturbed, and gt.json with the same entries and the same truth (a perturbation never
changes the prices). Images are written as PNG, except jpeg30's as JPEG, so an entry's
key keeps its name and folder but takes the new extension (a.jpg -> a.png). Where an
entry has "boxes" (pixel rectangles), they are moved with the geometry (the bounding
box of the moved corners).

Perturbations:
  scale0.5, scale0.35  downscale (Lanczos)
  scale2               upscale 2x (bicubic)
  rot+4, rot-4         rotate 4 degrees counterclockwise / clockwise (bicubic), canvas
                       expanded, corners filled with the median colour of the image's border
  tilt                 keystone: the right edge shrunk by 12% vertically (centred), as a
                       tag seen a little from its left; filled like rot
  jpeg30               JPEG quality 30 (4:2:0 chroma, baseline)
  blur                 Gaussian blur, radius 0.15% of the longer side, at least 1 px
  dim                  dim light: tone curve to 45% brightness (gamma 1.15), then Gaussian
                       noise of sigma 3 grey levels per channel from a fixed seed
  phone                a phone's photo of it: the image half the width of a 3:4 portrait
                       frame (at least 15% taller than the image), on a dark grainy table,
                       each corner moved up to 3% of its width (seeded by the entry's key),
                       saved as a JPEG of quality 85 stored on its side with EXIF
                       orientation 6, as most phones store a portrait photo
  shadow               a cast shadow: beyond a straight soft edge (6% of the longer side wide)
                       at an angle and offset seeded by the entry's key, the light falls to
                       40%, ink and paper alike
  blur-phone           blur, then phone: a document out of focus photographed on a table, two
                       perturbations at once as a traveller's photo often has them (the whole
                       photo's edges look sharp: its table's grain and the paper's outline)

Deterministic: the same input gives byte-identical outputs (fixed seeds, no time), with
no metadata copied but the resolution (phone's and blur-phone's copies add their EXIF orientation): a file's dpi is kept, scaled by the scale
perturbations as a scan at that resolution would say (pricecam gives it to Tesseract).
Each perturbation's folder is written beside it under a temporary name and renamed into
place when complete, replacing an older one; images are spread over --jobs processes.
Images are read upright: a JPEG's EXIF orientation is applied, as pricecam applies it;
alpha is composited on white; palette, CMYK and 16-bit images become RGB or 8-bit grey.
"""
# bootstrap: --frames   (Pillow; run by scripts/bench-robustness.sh and scripts/test-robustness.sh)
import argparse
import json
import math
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import zlib

from PIL import Image, ImageChops, ImageFilter, ImageOps, ImageStat

NAMES = ["scale0.5", "scale0.35", "scale2", "rot+4", "rot-4", "tilt", "jpeg30", "blur", "dim", "phone", "shadow",
         "blur-phone"]

TILT_SHRINK = 0.12      # the right edge's height lost, in parts of the image height
DIM_LEVEL = 0.45        # white becomes 45% grey
DIM_GAMMA = 1.15
DIM_NOISE_SIGMA = 3.0   # grey levels
DIM_SEED = 20261125
BLUR_FRACTION = 0.0015  # of the longer side
PNG_LEVEL = 1          # zlib level: 3x faster than 6 on receipts, files ~15% larger
PHONE_SHARE = 0.5       # of the frame's width the subject fills (a receipt held under the phone)
PHONE_JITTER = 0.03     # each corner moved up to this share of the subject's width
PHONE_TABLE = 70        # the table's grey level, +- PHONE_GRAIN
PHONE_GRAIN = 25
PHONE_QUALITY = 85      # a phone camera's JPEG
PHONE_ORIENTATION = 6   # EXIF: stored turned a quarter counterclockwise, shown turned back
SHADOW_LIGHT = 0.4      # light left in the shadow: a hand or phone held between a ceiling lamp and the page
SHADOW_PENUMBRA = 0.06  # the soft edge's width, in parts of the longer side (a hand 10-20 cm above the page)
SHADOW_SHIFT = 0.15     # the edge passes this share of the diagonal either side of the centre, at most


class Failure(Exception):
    pass


def die(msg):
    print(f"perturb.py: {msg}", file=sys.stderr)
    sys.exit(1)


# ---- reading -------------------------------------------------------------------------

def load(path):
    """The image's pixels as 8-bit RGB or L, and its resolution ((x, y) dpi, or None)."""
    try:
        with Image.open(path) as im:
            im.load()
            img = im
    except FileNotFoundError:
        raise Failure(f"{path}: no such image (named in gt.json)")
    except Exception as e:  # PIL.UnidentifiedImageError, OSError (truncated), DecompressionBomb...
        raise Failure(f"{path}: cannot read image: {e}")
    if img.format == "JPEG":
        img = ImageOps.exif_transpose(img)  # as pricecam reads a phone's JPEG: upright
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        img = Image.alpha_composite(white, rgba).convert("RGB")
    elif img.mode in ("I;16", "I;16B", "I;16L", "I"):
        img = img.convert("I").point(lambda v: v * (1 / 256)).convert("L")  # 16-bit grey to 8-bit
    elif img.mode == "1":
        img = img.convert("L")
    elif img.mode not in ("RGB", "L"):
        img = img.convert("RGB")
    dpi = img.info.get("dpi")
    img.info = {}  # no metadata into the copies (an ICC profile, EXIF)
    return img, dpi


def edge_colour(img):
    """Median of the border pixels, per band (what an expanded canvas is filled with)."""
    w, h = img.size
    strips = [img.crop((0, 0, w, 1)), img.crop((0, h - 1, w, h)),
              img.crop((0, 0, 1, h)).transpose(Image.Transpose.ROTATE_90),
              img.crop((w - 1, 0, w, h)).transpose(Image.Transpose.ROTATE_90)]
    border = Image.new(img.mode, (2 * w + 2 * h, 1))
    x = 0
    for s in strips:
        border.paste(s, (x, 0))
        x += s.size[0]
    med = ImageStat.Stat(border).median
    return med[0] if img.mode == "L" else tuple(med)


# ---- geometry ------------------------------------------------------------------------

def solve(a, b):
    """Solves a x = b (Gaussian elimination with partial pivoting; a is n x n)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def perspective(src, dst):
    """The 8 coefficients mapping each point of dst to its point of src (PIL's PERSPECTIVE data)."""
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return solve(a, b)


def apply_perspective(c, x, y):
    d = c[6] * x + c[7] * y + 1
    return (c[0] * x + c[1] * y + c[2]) / d, (c[3] * x + c[4] * y + c[5]) / d


def move_boxes(boxes, forward, size):
    """Each [x, y, w, h] as the bounding box of its moved corners, in whole pixels inside size."""
    if boxes is None:
        return None
    out = []
    W, H = size
    for x, y, w, h in boxes:
        pts = [forward(px, py) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
        x0 = min(max(math.floor(min(p[0] for p in pts)), 0), W - 1)
        y0 = min(max(math.floor(min(p[1] for p in pts)), 0), H - 1)
        x1 = max(min(math.ceil(max(p[0] for p in pts)), W), x0 + 1)
        y1 = max(min(math.ceil(max(p[1] for p in pts)), H), y0 + 1)
        out.append([x0, y0, x1 - x0, y1 - y0])
    return out


# ---- perturbations: image -> (image, forward point map) ------------------------------

def scale(img, f, resample):
    w, h = img.size
    nw, nh = max(1, round(w * f)), max(1, round(h * f))
    out = img.resize((nw, nh), resample)
    return out, lambda x, y: (x * nw / w, y * nh / h)


def rotate(img, degrees):
    w, h = img.size
    out = img.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=edge_colour(img))
    nw, nh = out.size
    t = math.radians(degrees)
    cos, sin = math.cos(t), math.sin(t)

    def forward(x, y):  # counterclockwise on screen (y down), about the centre
        dx, dy = x - w / 2, y - h / 2
        return nw / 2 + dx * cos + dy * sin, nh / 2 - dx * sin + dy * cos
    return out, forward


def tilt(img):
    w, h = img.size
    m = TILT_SHRINK / 2 * h
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = [(0, 0), (w, m), (w, h - m), (0, h)]
    out = img.transform((w, h), Image.Transform.PERSPECTIVE, perspective(src, dst),
                        Image.Resampling.BICUBIC, fillcolor=edge_colour(img))
    fwd = perspective(dst, src)
    return out, lambda x, y: apply_perspective(fwd, x, y)


def blur(img):
    radius = max(1.0, BLUR_FRACTION * max(img.size))
    return img.filter(ImageFilter.GaussianBlur(radius)), None


def dim(img):
    curve = [round(255 * DIM_LEVEL * (v / 255) ** DIM_GAMMA) for v in range(256)]
    dark = img.point(curve * len(img.getbands()))
    # Noise: uniform bytes from a seeded generator, shaped to a Gaussian by a table
    # (inverse CDF), centred on 128, added with offset -128 (ImageChops clips to 0..255).
    normal = statistics.NormalDist(0, DIM_NOISE_SIGMA)
    shape = [max(0, min(255, 128 + round(normal.inv_cdf((b + 0.5) / 256)))) for b in range(256)]
    rng = random.Random(DIM_SEED)
    w, h = img.size
    bands = [Image.frombytes("L", (w, h), rng.randbytes(w * h)).point(shape) for _ in img.getbands()]
    noise = bands[0] if img.mode == "L" else Image.merge(img.mode, bands)
    return ImageChops.add(dark, noise, 1.0, -128), None


def phone(img, key):
    w, h = img.size
    W = round(w / PHONE_SHARE)
    H = max(round(W * 4 / 3), round(h * 1.15))
    rng = random.Random(zlib.crc32(key.encode("utf-8")))
    def jitter():
        return rng.uniform(-PHONE_JITTER, PHONE_JITTER) * w
    x0, y0 = (W - w) / 2, (H - h) / 2
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = [(x0 + jitter(), y0 + jitter()), (x0 + w + jitter(), y0 + jitter()),
           (x0 + w + jitter(), y0 + h + jitter()), (x0 + jitter(), y0 + h + jitter())]
    back = perspective(src, dst)
    # The table: coarse seeded grain, enlarged smooth.
    gw, gh = max(1, W // 8), max(1, H // 8)
    grain = Image.frombytes("L", (gw, gh), rng.randbytes(gw * gh))
    lo, hi = PHONE_TABLE - PHONE_GRAIN, PHONE_TABLE + PHONE_GRAIN
    table = grain.point([lo + (hi - lo) * v // 255 for v in range(256)]).resize((W, H), Image.Resampling.BICUBIC)
    if img.mode != "L":
        table = table.convert(img.mode)
    warped = img.transform((W, H), Image.Transform.PERSPECTIVE, back, Image.Resampling.BICUBIC)
    mask = Image.new("L", (w, h), 255).transform((W, H), Image.Transform.PERSPECTIVE, back, Image.Resampling.BILINEAR)
    out = Image.composite(warped, table, mask)
    fwd = perspective(dst, src)
    return out, lambda x, y: apply_perspective(fwd, x, y)


def shadow(img, key):
    """A cast shadow: the light falls to SHADOW_LIGHT beyond a straight soft edge across the image.

    The edge's angle and offset are seeded by the entry's key, as phone's corners are, so each
    image is shadowed its own way and the same way on every run. Ink and paper are darkened
    alike (the light multiplies both), so inside the shadow the contrast is SHADOW_LIGHT of the
    lit part's and a page's paper is two greys: one threshold for the whole page cannot serve both.
    """
    w, h = img.size
    rng = random.Random(zlib.crc32(("shadow:" + key).encode("utf-8")))
    theta = rng.uniform(0, 2 * math.pi)
    nx, ny = math.cos(theta), math.sin(theta)
    diag = math.hypot(w, h)
    offset = rng.uniform(-SHADOW_SHIFT, SHADOW_SHIFT) * diag
    half = max(1.0, SHADOW_PENUMBRA * max(w, h) / 2)
    # The light map at 1/8 size, enlarged smoothly (the penumbra is far wider than 8 px).
    sw, sh = max(1, (w + 7) // 8), max(1, (h + 7) // 8)
    lut = []
    for j in range(sh):
        for i in range(sw):
            d = (i * 8 + 4 - w / 2) * nx + (j * 8 + 4 - h / 2) * ny - offset
            t = min(1.0, max(0.0, (d + half) / (2 * half)))
            t = t * t * (3 - 2 * t)  # smoothstep: no kink at the penumbra's ends
            lut.append(round(255 * (1 - (1 - SHADOW_LIGHT) * t)))
    light = Image.frombytes("L", (sw, sh), bytes(lut)).resize((w, h), Image.Resampling.BILINEAR)
    if img.mode != "L":
        light = Image.merge(img.mode, [light] * len(img.getbands()))
    return ImageChops.multiply(img, light), None


def perturb(name, img, key=""):
    if name == "scale0.5":
        return scale(img, 0.5, Image.Resampling.LANCZOS)
    if name == "scale0.35":
        return scale(img, 0.35, Image.Resampling.LANCZOS)
    if name == "scale2":
        return scale(img, 2, Image.Resampling.BICUBIC)
    if name == "rot+4":
        return rotate(img, 4)
    if name == "rot-4":
        return rotate(img, -4)
    if name == "tilt":
        return tilt(img)
    if name == "jpeg30":
        return img, None
    if name == "blur":
        return blur(img)
    if name == "dim":
        return dim(img)
    if name == "phone":
        return phone(img, key)
    if name == "shadow":
        return shadow(img, key)
    if name == "blur-phone":
        return phone(blur(img)[0], key)
    raise ValueError(name)


# ---- writing -------------------------------------------------------------------------

def out_key(key, name):
    stem, _ = os.path.splitext(key)
    return stem + (".jpg" if name in ("jpeg30", "phone", "blur-phone") else ".png")


def save(img, path, name, dpi):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    extra = {"dpi": dpi} if dpi else {}
    if name == "jpeg30":
        img.save(path, "JPEG", quality=30, subsampling=2, optimize=False, progressive=False, **extra)
    elif name in ("phone", "blur-phone"):
        exif = Image.Exif()
        exif[0x0112] = PHONE_ORIENTATION
        img.transpose(Image.Transpose.ROTATE_90).save(
            path, "JPEG", quality=PHONE_QUALITY, optimize=False, progressive=False, exif=exif.tobytes(), **extra)
    else:
        img.save(path, "PNG", compress_level=PNG_LEVEL, **extra)


def one_image(job):
    """Loads one image and writes its perturbed copies; returns {name: (key, gt entry)}."""
    path, key, truth, names, tmp = job
    img, dpi = load(path)
    result = {}
    for name in names:
        out, forward = perturb(name, img, key)
        out_dpi = None
        if dpi and dpi[0] > 0 and dpi[1] > 0:  # scales with a scale perturbation, as a scan's would
            out_dpi = (round(dpi[0] * out.size[0] / img.size[0]), round(dpi[1] * out.size[1] / img.size[1])) \
                if name.startswith("scale") else (round(dpi[0]), round(dpi[1]))
        entry = dict(truth)
        if isinstance(entry.get("boxes"), list):
            entry["boxes"] = move_boxes(entry["boxes"], forward or (lambda x, y: (x, y)), out.size)
        k = out_key(key, name)
        save(out, os.path.join(tmp[name], "img", k), name, out_dpi)
        result[name] = (k, entry)
    return result


def main():
    ap = argparse.ArgumentParser(prog="perturb.py", description=__doc__.split("\n\n")[0],
                                 epilog="Perturbations: " + ", ".join(NAMES))
    ap.add_argument("src", metavar="SRC_SET", help="folder with gt.json and img/")
    ap.add_argument("dest", metavar="DEST_DIR", help="writes DEST_DIR/<perturbation>/{img/,gt.json}")
    ap.add_argument("--only", metavar="NAME,NAME", help="only these perturbations (default: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="images perturbed at once, one process each (default: the number of cores)")
    args = ap.parse_args()

    if args.jobs < 1:
        die(f"--jobs must be at least 1, got {args.jobs}")
    names = NAMES
    if args.only is not None:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in NAMES]
        if unknown or not names:
            die(f"--only: unknown perturbation {', '.join(map(repr, unknown)) or '(none given)'}; "
                f"choose from {','.join(NAMES)}")
        names = [n for n in NAMES if n in names]

    gt_path = os.path.join(args.src, "gt.json")
    try:
        with open(gt_path, encoding="utf-8") as f:
            gt = json.load(f)
    except FileNotFoundError:
        die(f"{gt_path}: no such file (SRC_SET must hold gt.json and img/)")
    except (OSError, ValueError) as e:
        die(f"{gt_path}: cannot read: {e}")
    if not isinstance(gt, dict) or not all(isinstance(v, dict) for v in gt.values()):
        die(f"{gt_path}: not a JSON object of image -> {{total, amounts}}")
    imgdir = os.path.join(args.src, "img")
    if not os.path.isdir(imgdir):
        imgdir = args.src
    for name in names:
        keys = {}
        for key in gt:
            k = out_key(key, name)
            if k in keys:
                die(f"{gt_path}: {key!r} and {keys[k]!r} would both be written as {k!r}")
            keys[k] = key

    os.makedirs(args.dest, exist_ok=True)
    tmp = {n: os.path.join(args.dest, f".{n}.tmp") for n in names}
    out_gt = {n: {} for n in names}
    for t in tmp.values():
        shutil.rmtree(t, ignore_errors=True)
        os.makedirs(os.path.join(t, "img"))
    jobs = [(os.path.join(imgdir, key), key, gt[key], names, tmp) for key in gt]
    try:
        if args.jobs > 1 and len(jobs) > 1:
            with multiprocessing.get_context("fork").Pool(min(args.jobs, len(jobs))) as pool:
                done = list(pool.imap(one_image, jobs))
        else:
            done = [one_image(j) for j in jobs]
    except BaseException as e:
        for t in tmp.values():
            shutil.rmtree(t, ignore_errors=True)
        if isinstance(e, Failure):
            die(str(e))
        raise
    for entries in done:  # gt.json's order, kept in the copies
        for name, (k, entry) in entries.items():
            out_gt[name][k] = entry
    for name in names:
        with open(os.path.join(tmp[name], "gt.json"), "w", encoding="utf-8") as f:
            json.dump(out_gt[name], f, indent=1, ensure_ascii=False)
            f.write("\n")
        final = os.path.join(args.dest, name)
        shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp[name], final)
    print(f"perturb.py: {len(gt)} images x {len(names)} perturbations -> {args.dest}", file=sys.stderr)


if __name__ == "__main__":
    main()
