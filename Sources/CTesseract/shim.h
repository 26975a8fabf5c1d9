// Tesseract C API and Leptonica, made usable from Swift.
#ifndef PRICECAM_CTESSERACT_SHIM_H
#define PRICECAM_CTESSERACT_SHIM_H

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

// Leptonica exposes these only as macros or enum values Swift sees awkwardly.
static const int pricecam_IFF_UNKNOWN = IFF_UNKNOWN;
static const int pricecam_IFF_JFIF_JPEG = IFF_JFIF_JPEG;
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

#endif
