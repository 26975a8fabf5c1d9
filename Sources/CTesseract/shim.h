// Tesseract C API and Leptonica, made usable from Swift.
#ifndef PRICECAM_CTESSERACT_SHIM_H
#define PRICECAM_CTESSERACT_SHIM_H

#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

// Leptonica exposes these only as macros or enum values Swift sees awkwardly.
static const int pricecam_IFF_UNKNOWN = IFF_UNKNOWN;
static const int pricecam_IFF_JFIF_JPEG = IFF_JFIF_JPEG;
static const int pricecam_L_JPEG_FAIL_ON_BAD_DATA = L_JPEG_FAIL_ON_BAD_DATA;
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

#endif
