// A PNG decoded straight to 8-bit gray at a fraction of its size, row by row, so the
// full-size image is never in memory (reduced_png.c). Leptonica decodes a PNG whole, and a
// 140 MP page would take 560 MB as RGBA before a gray copy: this reads such a file within
// the pixel limit, as libjpeg's DCT scaling does for a JPEG.
#ifndef PRICECAM_REDUCED_PNG_H
#define PRICECAM_REDUCED_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `pc_png_read_reduced` returns.
typedef enum {
    PC_PNG_OK = 0,
    /// Not a PNG, or its IHDR is malformed or names an unknown colour type or depth.
    PC_PNG_BAD_HEADER = 1,
    /// An interlaced (Adam7) PNG: not decoded reduced.
    PC_PNG_INTERLACED = 2,
    /// A chunk's CRC, the zlib stream or a row's filter byte is wrong, or the data ends early.
    PC_PNG_CORRUPT = 3,
    /// Out of memory.
    PC_PNG_NO_MEMORY = 4,
} pc_png_status;

/// Decodes the PNG in `data` to gray (Leptonica's weights for colour: 0.3 R + 0.5 G + 0.2 B;
/// a palette's entries likewise; 16-bit samples by their high byte; alpha ignored), each
/// `reduction` × `reduction` block of pixels averaged into one (the last row and column of
/// blocks over what they hold). On success `*pixels` is a malloc'ed buffer of `*width` ×
/// `*height` bytes (ceil of the file's sides over `reduction`), rows without padding, for
/// the caller to free; `*dpi` the file's pHYs resolution in dots per inch (0 when absent),
/// not divided by the reduction. `detail` gets a line on what was wrong.
pc_png_status pc_png_read_reduced(const uint8_t *data, size_t length, int reduction, uint8_t **pixels, int *width,
                                  int *height, int *dpi, char *detail, size_t detail_length);

#ifdef __cplusplus
}
#endif

#endif
