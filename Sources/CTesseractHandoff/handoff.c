// Tesseract hands every word or line image to its LSTM as a PNG in memory
// (ImageData::SetPixInternal calls Leptonica's pixWriteMem(..., IFF_PNG), and
// RecognizeLine decodes it again). Leptonica compresses that PNG at zlib's default
// level 6, which is 7-9% of pricecam's CPU on receipts and shelf photos (perf, sroie-dev).
// The PNG never leaves memory and is decoded once, so it is written uncompressed here:
// PNG is lossless, so Tesseract reads exactly the same pixels.
//
// This definition takes the place of Leptonica's for libtesseract when the
// executable exports it (`--export-dynamic-symbol=pixWriteMem` in Package.swift);
// it sets the zlib level through the PIX's `special` field (Leptonica's documented
// way: 10 + level, see pixSetZlibCompression) and calls Leptonica's own pixWriteMem.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <leptonica/allheaders.h>
#include "handoff.h"

typedef l_ok (*pix_write_mem_fn)(l_uint8 **, size_t *, PIX *, l_int32);

static _Atomic(pix_write_mem_fn) leptonica_write_mem = NULL;
static atomic_ulong fast_count = 0;
/// 1: fast handoff, 0: Leptonica's default (PRICECAM_PNG_HANDOFF=default, for measuring).
static atomic_int fast_enabled = -1;

/// zlib level 0: stored, no compression (the buffer is freed right after decoding).
enum { handoff_zlib_level = 0 };

l_ok pixWriteMem(l_uint8 **pdata, size_t *psize, PIX *pix, l_int32 format) {
    pix_write_mem_fn real = atomic_load(&leptonica_write_mem);
    if (real == NULL) {
        real = (pix_write_mem_fn)dlsym(RTLD_NEXT, "pixWriteMem");
        if (real == NULL) return 1;  // Leptonica's error value: Tesseract falls back to PNM
        atomic_store(&leptonica_write_mem, real);
    }
    int enabled = atomic_load(&fast_enabled);
    if (enabled < 0) {
        const char *v = getenv("PRICECAM_PNG_HANDOFF");
        enabled = !(v != NULL && strcmp(v, "default") == 0);
        atomic_store(&fast_enabled, enabled);
    }
    // Only PNGs whose caller chose no level (special 0): Tesseract's handoff.
    if (enabled && format == IFF_PNG && pix != NULL && pix->special == 0) {
        pixSetSpecial(pix, 10 + handoff_zlib_level);
        l_ok r = real(pdata, psize, pix, format);
        pixSetSpecial(pix, 0);
        atomic_fetch_add(&fast_count, 1);
        return r;
    }
    return real(pdata, psize, pix, format);
}

unsigned long pricecam_fastHandoffCount(void) { return atomic_load(&fast_count); }
