// Tesseract C API and Leptonica, made usable from Swift.
#ifndef PRICECAM_CTESSERACT_SHIM_H
#define PRICECAM_CTESSERACT_SHIM_H

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#include <math.h>
#include <stdlib.h>

// Leptonica exposes these only as macros or enum values Swift sees awkwardly.
static const int pricecam_IFF_UNKNOWN = IFF_UNKNOWN;
static const int pricecam_IFF_JFIF_JPEG = IFF_JFIF_JPEG;
static const int pricecam_IFF_PNG = IFF_PNG;
// Reading only luma is faster and all OCR needs; bad data fails unless
// L_JPEG_CONTINUE_WITH_BAD_DATA is given, which pricecam never does.
static const int pricecam_L_JPEG_READ_LUMINANCE = L_JPEG_READ_LUMINANCE;
static const int pricecam_L_SEVERITY_NONE = L_SEVERITY_NONE;

/// Destroys a Pix through the pointer-to-pointer API Leptonica wants.
static inline void pricecam_pixDestroy(PIX *pix) {
    PIX *p = pix;
    pixDestroy(&p);
}

/// Width, height, depth of a Pix without exposing the struct layout.
static inline int pricecam_pixWidth(PIX *pix) { return pixGetWidth(pix); }
static inline int pricecam_pixHeight(PIX *pix) { return pixGetHeight(pix); }
static inline int pricecam_pixDepth(PIX *pix) { return pixGetDepth(pix); }

/// An 8 bpp Pix holding a copy of `bytes` (row stride `bytesPerRow`), or NULL.
static inline PIX *pricecam_pixFromGray(const unsigned char *bytes, int width, int height, int bytesPerRow) {
    PIX *pix = pixCreate(width, height, 8);
    if (!pix) return NULL;
    l_uint32 *data = pixGetData(pix);
    int wpl = pixGetWpl(pix);
    for (int y = 0; y < height; y++) {
        l_uint32 *line = data + y * wpl;
        const unsigned char *src = bytes + (size_t)y * bytesPerRow;
        for (int x = 0; x < width; x++) SET_DATA_BYTE(line, x, src[x]);
    }
    return pix;
}

/// Copies an 8 bpp Pix into `out` (width*height bytes, no padding).
static inline void pricecam_pixCopyGray(PIX *pix, unsigned char *out) {
    int width = pixGetWidth(pix), height = pixGetHeight(pix);
    l_uint32 *data = pixGetData(pix);
    int wpl = pixGetWpl(pix);
    for (int y = 0; y < height; y++) {
        l_uint32 *line = data + y * wpl;
        unsigned char *dst = out + (size_t)y * width;
        for (int x = 0; x < width; x++) dst[x] = GET_DATA_BYTE(line, x);
    }
}

/// Background normalisation (shadows, uneven light): 8 bpp in, new 8 bpp Pix out, or NULL.
static inline PIX *pricecam_backgroundNorm(PIX *pix) {
    // Morphological: the background is the image closed (text removed) at 4x reduction with a
    // 9x9 brick (36 px at full size). pixBackgroundNormSimple's fixed foreground threshold (100)
    // took shadowed paper for text and left prices there unreadable (Fixtures/shadow 0.952 -> 0.984).
    return pixBackgroundNormMorph(pix, NULL, 4, 9, 200);
}

/// Background normalisation of a text line's crop whose glyphs are `glyph` px tall: the
/// background is the crop closed with a brick about one glyph high (at 2x reduction, 4x from
/// 96 px glyphs), wider than any stroke (a bold digit's is under a third of its height), so the
/// strokes go and the paper stays, a shadow's sharp edge included (a closing keeps a step).
static inline PIX *pricecam_backgroundNormGlyph(PIX *pix, int glyph) {
    int reduction = glyph >= 96 ? 4 : 2;
    int size = glyph / reduction;
    if (size < 3) size = 3;
    size |= 1;  /* Leptonica's gray closing takes odd sizes */
    return pixBackgroundNormMorph(pix, NULL, reduction, size, 200);
}

/// Scales an 8 bpp Pix by `factor` (linear interpolation when enlarging); new Pix or NULL.
static inline PIX *pricecam_scale(PIX *pix, float factor) {
    if (factor > 1.0f && pixGetDepth(pix) == 8 && !pixGetColormap(pix)) return pixScaleGrayLI(pix, factor, factor);
    return pixScale(pix, factor, factor);
}

/// Unsharp masking of an 8 bpp Pix: `fract` of the difference from its box blur of
/// `halfwidth` added back; new Pix or NULL.
static inline PIX *pricecam_unsharp(PIX *pix, int halfwidth, float fract) {
    return pixUnsharpMaskingGray(pix, halfwidth, fract);
}

/// Linear contrast stretch mapping [lo, hi] to [0, 255]; new Pix or NULL.
static inline PIX *pricecam_stretch(PIX *pix, int lo, int hi) {
    if (hi <= lo) return pixCopy(NULL, pix);
    return pixGammaTRC(NULL, pix, 1.0f, lo, hi);
}

/// Deskews an 8 bpp Pix when Leptonica finds a confident skew of at least `minAngle` degrees
/// (binarised at `threshold`); new Pix (a copy when none) or NULL.
/// `angle` receives the angle found in degrees, `confidence` Leptonica's confidence (both 0 when none).
static inline PIX *pricecam_deskew(PIX *pix, int threshold, float minAngle, float *angle, float *confidence) {
    l_float32 a = 0, conf = 0;
    *angle = 0;
    *confidence = 0;
    PIX *bin = pixConvertTo1(pix, threshold);
    if (!bin) return NULL;
    int ok = pixFindSkew(bin, &a, &conf);
    pixDestroy(&bin);
    if (ok != 0) return pixCopy(NULL, pix);
    *confidence = conf;
    if (conf < 2.0f || fabsf(a) < minAngle) return pixCopy(NULL, pix);
    *angle = a;
    return pixRotate(pix, a * 3.14159265f / 180.0f, L_ROTATE_AREA_MAP, L_BRING_IN_WHITE, 0, 0);
}

/// Histograms of a gx × gy grid of tiles, sampling every `step`-th pixel and row.
/// `out` holds gx*gy*256 counters (tile-major, row by row), zeroed by the caller.
static inline void pricecam_tileHistograms(PIX *pix, int gx, int gy, int step, unsigned int *out) {
    int width = pixGetWidth(pix), height = pixGetHeight(pix);
    l_uint32 *data = pixGetData(pix);
    int wpl = pixGetWpl(pix);
    if (step < 1) step = 1;
    for (int y = 0; y < height; y += step) {
        l_uint32 *line = data + y * wpl;
        int ty = y * gy / height;
        for (int x = 0; x < width; x += step) {
            int tx = x * gx / width;
            out[(ty * gx + tx) * 256 + GET_DATA_BYTE(line, x)]++;
        }
    }
}

/// A copy of the rectangle (clipped to the image) as a new Pix, or NULL.
static inline PIX *pricecam_crop(PIX *pix, int x, int y, int w, int h) {
    BOX *box = boxCreate(x, y, w, h);
    if (!box) return NULL;
    PIX *out = pixClipRectangle(pix, box, NULL);
    boxDestroy(&box);
    return out;
}

/// Median height (full-resolution pixels) of glyph-like connected components, or 0 when too few.
/// Binarises at `threshold` after a 2× gray reduction when the image is large (`reduce` = 2),
/// keeps components 3..400 px tall whose width is 0.15..3 × their height, and
/// returns the median height. `count` receives how many components were kept.
static inline int pricecam_textHeight(PIX *pix, int threshold, int reduce, int *count) {
    *count = 0;
    PIX *bin = pixConvertTo1(pix, threshold);
    if (!bin) return 0;
    if (reduce == 2) {
        // Rank 1: a reduced pixel is ink when any of its four is, so dotted (thermal) glyphs stay whole.
        PIX *small = pixReduceRankBinary2(bin, 1, NULL);
        pixDestroy(&bin);
        if (!small) return 0;
        bin = small;
    }
    BOXA *boxa = pixConnComp(bin, NULL, 8);
    pixDestroy(&bin);
    if (!boxa) return 0;
    // The median comes from a counting sort over 0..400 (the heights kept), so
    // the heights need no array of their own.
    int hist[401] = {0};
    int k = 0;
    int n = boxaGetCount(boxa);
    for (int i = 0; i < n; i++) {
        l_int32 x, y, w, h;
        if (boxaGetBoxGeometry(boxa, i, &x, &y, &w, &h) != 0) continue;
        int H = h * reduce, W = w * reduce;
        if (H < 6 || H > 400) continue;
        if (W * 100 < H * 15 || W > H * 3) continue;
        hist[H]++;
        k++;
    }
    boxaDestroy(&boxa);
    int out = 0;
    if (k >= 8) {
        int run = 0;
        for (int v = 0; v <= 400; v++) { run += hist[v]; if (run * 2 > k) { out = v; break; } }
    }
    *count = k;
    return out;
}

/// Otsu's threshold of a 256-bin histogram (the level that best splits it in two), 0 when empty.
static inline int pricecam_otsu(const double *hist) {
    double total = 0, sum = 0;
    for (int i = 0; i < 256; i++) { total += hist[i]; sum += i * hist[i]; }
    if (total <= 0) return 0;
    double wB = 0, sumB = 0, best = -1;
    int t = 0;
    for (int i = 0; i < 256; i++) {
        wB += hist[i];
        if (wB <= 0) continue;
        double wF = total - wB;
        if (wF <= 0) break;
        sumB += i * hist[i];
        double mB = sumB / wB, mF = (sum - sumB) / wF;
        double between = wB * wF * (mB - mF) * (mB - mF);
        if (between > best) { best = between; t = i; }
    }
    return t;
}

/// A JPEG of a Pix as it is (8 bpp gray, or 32 bpp colour), for display: the
/// web app draws boxes and labels itself, over the image. Returns malloc'd
/// bytes the caller frees with free(), or NULL; `*size` is their count.
static inline l_uint8 *pricecam_jpeg(PIX *pix, int quality, size_t *size) {
    *size = 0;
    l_uint8 *data = NULL;
    if (pixWriteMemJpeg(&data, size, pix, quality, 0) != 0) {
        if (data) free(data);
        *size = 0;
        return NULL;
    }
    return data;
}

/// A 32 bpp Pix of interleaved 8-bit RGB (`width * height * 3` bytes, rows packed).
static inline PIX *pricecam_pixFromRGB(const unsigned char *rgb, int width, int height) {
    PIX *pix = pixCreate(width, height, 32);
    if (!pix) return NULL;
    l_uint32 *data = pixGetData(pix);
    int wpl = pixGetWpl(pix);
    for (int y = 0; y < height; y++) {
        l_uint32 *line = data + y * wpl;
        const unsigned char *src = rgb + (size_t)y * width * 3;
        for (int x = 0; x < width; x++) composeRGBPixel(src[3 * x], src[3 * x + 1], src[3 * x + 2], line + x);
    }
    return pix;
}

/// An image file's pixels in colour (32 bpp; gray and colour-mapped images
/// converted), for display; NULL when it does not decode.
static inline PIX *pricecam_pixReadColour(const l_uint8 *bytes, size_t size) {
    PIX *pix = pixReadMem(bytes, size);
    if (!pix) return NULL;
    PIX *rgb = pixConvertTo32(pix);
    pixDestroy(&pix);
    return rgb;
}

/// Bytes of heap allocated and not freed (malloc's own count: mmapped blocks and the arenas'
/// blocks in use), apart from freed memory the allocator keeps.
#include <malloc.h>
static inline size_t pricecam_heapInUse(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

#endif
