// A PNG decoded to gray at 1/reduction of its size, one row at a time: see
// include/reduced_png.h. Memory: two rows of the file and one row of block sums, besides
// the output.
#include "reduced_png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void say(char *detail, size_t length, const char *message) {
    if (detail && length) snprintf(detail, length, "%s", message);
}

// Leptonica's luminance (pixConvertRGBToLuminance: 0.3 R + 0.5 G + 0.2 B, rounded).
static uint8_t luminance(int r, int g, int b) { return (uint8_t)((3 * r + 5 * g + 2 * b + 5) / 10); }

static int paeth(int a, int b, int c) {
    const int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

typedef struct {
    uint32_t width, height;
    int depth, colour, channels, reduction;
    size_t row_bytes;   // without the filter byte
    int filter_step;    // bytes between a sample and the same sample of the pixel to its left
    uint8_t palette[256];
    uint8_t *current, *previous;  // the filter byte, then the row
    uint8_t *gray;                // one row of the file, gray
    uint32_t *sums;               // one row of blocks
    uint8_t *out;
    uint32_t out_width, out_height;
    uint32_t row;                 // rows done
} decoder;

// Undoes the row's filter (PNG 1.2, section 6) against the row above; 0 when its type is unknown.
static int unfilter(decoder *d) {
    uint8_t *raw = d->current + 1;
    const uint8_t *prior = d->previous + 1;
    const size_t n = d->row_bytes;
    const int step = d->filter_step;
    switch (d->current[0]) {
    case 0:
        break;
    case 1:
        for (size_t i = step; i < n; i++) raw[i] = (uint8_t)(raw[i] + raw[i - step]);
        break;
    case 2:
        for (size_t i = 0; i < n; i++) raw[i] = (uint8_t)(raw[i] + prior[i]);
        break;
    case 3:
        for (size_t i = 0; i < n; i++) {
            const int left = i >= (size_t)step ? raw[i - step] : 0;
            raw[i] = (uint8_t)(raw[i] + ((left + prior[i]) >> 1));
        }
        break;
    case 4:
        for (size_t i = 0; i < n; i++) {
            const int left = i >= (size_t)step ? raw[i - step] : 0;
            const int upper_left = i >= (size_t)step ? prior[i - step] : 0;
            raw[i] = (uint8_t)(raw[i] + paeth(left, prior[i], upper_left));
        }
        break;
    default:
        return 0;
    }
    return 1;
}

// The unfiltered row in gray, added to its blocks; a finished row of blocks is written out.
static void take_row(decoder *d) {
    const uint8_t *raw = d->current + 1;
    const uint32_t w = d->width;
    uint8_t *g = d->gray;
    if (d->depth < 8) {
        const int mask = (1 << d->depth) - 1;
        for (uint32_t x = 0; x < w; x++) {
            const size_t bit = (size_t)x * d->depth;
            const int sample = (raw[bit >> 3] >> (8 - d->depth - (int)(bit & 7))) & mask;
            g[x] = d->colour == 3 ? d->palette[sample] : (uint8_t)(sample * 255 / mask);
        }
    } else {
        const int bytes = d->depth / 8;  // 1 or 2: a 16-bit sample by its high byte
        const int pixel = bytes * d->channels;
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = raw + (size_t)x * pixel;
            switch (d->colour) {
            case 0:
            case 4:
                g[x] = p[0];
                break;
            case 3:
                g[x] = d->palette[p[0]];
                break;
            default:  // 2, 6
                g[x] = luminance(p[0], p[bytes], p[2 * bytes]);
            }
        }
    }
    const int r = d->reduction;
    for (uint32_t x = 0; x < w; x++) d->sums[x / r] += g[x];
    const uint32_t y = d->row;
    if ((y + 1) % r == 0 || y + 1 == d->height) {
        const uint32_t oy = y / r, rows = y - oy * r + 1;
        uint8_t *line = d->out + (size_t)oy * d->out_width;
        for (uint32_t ox = 0; ox < d->out_width; ox++) {
            const uint32_t columns = (ox + 1) * r <= w ? (uint32_t)r : w - ox * r;
            const uint32_t count = columns * rows;
            line[ox] = (uint8_t)((d->sums[ox] + count / 2) / count);
        }
        memset(d->sums, 0, sizeof(uint32_t) * d->out_width);
    }
    uint8_t *t = d->current;
    d->current = d->previous;
    d->previous = t;
    d->row++;
}

static int valid_depth(int colour, int depth) {
    switch (colour) {
    case 0:
        return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    case 3:
        return depth == 1 || depth == 2 || depth == 4 || depth == 8;
    case 2:
    case 4:
    case 6:
        return depth == 8 || depth == 16;
    default:
        return 0;
    }
}

pc_png_status pc_png_read_reduced(const uint8_t *data, size_t length, int reduction, uint8_t **pixels, int *width,
                                  int *height, int *dpi, char *detail, size_t detail_length) {
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (!data || !pixels || !width || !height || !dpi || reduction < 1 || length < 8 + 25 ||
        memcmp(data, signature, 8) != 0 || be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) {
        say(detail, detail_length, "not a PNG (no signature and IHDR chunk)");
        return PC_PNG_BAD_HEADER;
    }
    *pixels = NULL;
    *dpi = 0;
    decoder d;
    memset(&d, 0, sizeof d);
    const uint8_t *ihdr = data + 16;
    d.width = be32(ihdr);
    d.height = be32(ihdr + 4);
    d.depth = ihdr[8];
    d.colour = ihdr[9];
    d.reduction = reduction;
    // Sides over a million pixels are refused, as libpng refuses them by default
    // (PNG_USER_WIDTH_MAX, PNG_USER_HEIGHT_MAX), which Leptonica reads with: a row
    // that long is no page, and its buffers would be allocated before any data is seen.
    if (d.width == 0 || d.height == 0 || d.width > 1000000u || d.height > 1000000u || !valid_depth(d.colour, d.depth) ||
        ihdr[10] != 0 || ihdr[11] != 0 || ihdr[12] > 1) {
        say(detail, detail_length, "malformed IHDR (size, bit depth, colour type or method)");
        return PC_PNG_BAD_HEADER;
    }
    if (ihdr[12] == 1) {
        say(detail, detail_length, "interlaced (Adam7) PNG");
        return PC_PNG_INTERLACED;
    }
    static const int channels[7] = {1, 0, 3, 1, 2, 0, 4};
    d.channels = channels[d.colour];
    const size_t bits = (size_t)d.depth * d.channels;
    d.row_bytes = ((size_t)d.width * bits + 7) / 8;
    d.filter_step = bits >= 8 ? (int)(bits / 8) : 1;
    d.out_width = (d.width + reduction - 1) / reduction;
    d.out_height = (d.height + reduction - 1) / reduction;
    for (int i = 0; i < 256; i++) d.palette[i] = 0;

    pc_png_status status = PC_PNG_NO_MEMORY;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int inflating = 0;
    d.current = calloc(d.row_bytes + 1, 1);
    d.previous = calloc(d.row_bytes + 1, 1);
    d.gray = malloc(d.width);
    d.sums = calloc(d.out_width, sizeof(uint32_t));
    d.out = malloc((size_t)d.out_width * d.out_height);
    if (!d.current || !d.previous || !d.gray || !d.sums || !d.out || inflateInit(&zs) != Z_OK) goto done;
    inflating = 1;

    status = PC_PNG_CORRUPT;
    size_t filled = 0;  // bytes of the current row (its filter byte first) inflated so far
    int ended = 0;      // the zlib stream ended
    size_t at = 8 + 25;
    for (;;) {
        if (length - at < 12) break;  // no IEND: whole when every row came (checked below)
        const uint32_t size = be32(data + at);
        const uint8_t *type = data + at + 4, *body = data + at + 8;
        if (size > length - at - 12) {
            say(detail, detail_length, "the data ends inside a chunk");
            goto done;
        }
        if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), type, size + 4) != be32(body + size)) {
            char message[64];
            snprintf(message, sizeof message, "CRC error in a %.4s chunk", (const char *)type);
            say(detail, detail_length, message);
            goto done;
        }
        at += 12 + (size_t)size;
        if (memcmp(type, "IEND", 4) == 0) break;
        if (memcmp(type, "PLTE", 4) == 0 && size % 3 == 0 && size <= 768) {
            for (uint32_t i = 0; i < size / 3; i++) d.palette[i] = luminance(body[3 * i], body[3 * i + 1], body[3 * i + 2]);
        } else if (memcmp(type, "pHYs", 4) == 0 && size == 9 && body[8] == 1) {
            *dpi = (int)(be32(body) * 0.0254 + 0.5);  // pixels per metre
        } else if (memcmp(type, "IDAT", 4) == 0 && !ended && d.row < d.height) {
            zs.next_in = (Bytef *)body;
            zs.avail_in = size;
            while (zs.avail_in > 0 && d.row < d.height) {
                zs.next_out = d.current + filled;
                zs.avail_out = (uInt)(d.row_bytes + 1 - filled);
                const int rc = inflate(&zs, Z_NO_FLUSH);
                filled = d.row_bytes + 1 - zs.avail_out;
                if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
                    say(detail, detail_length, zs.msg ? zs.msg : "zlib stream error");
                    goto done;
                }
                if (filled == d.row_bytes + 1) {
                    if (!unfilter(&d)) {
                        say(detail, detail_length, "a row has an unknown filter type");
                        goto done;
                    }
                    take_row(&d);
                    filled = 0;
                }
                if (rc == Z_STREAM_END) {
                    ended = 1;
                    break;
                }
                if (rc == Z_BUF_ERROR) break;  // no progress with what is left: wait for the next chunk
            }
        }
    }
    if (d.row < d.height) {
        char message[96];
        snprintf(message, sizeof message, "the image data ends after %u of %u rows", d.row, d.height);
        say(detail, detail_length, message);
        goto done;
    }
    status = PC_PNG_OK;
    *pixels = d.out;
    d.out = NULL;
    *width = (int)d.out_width;
    *height = (int)d.out_height;

done:
    if (inflating) inflateEnd(&zs);
    free(d.current);
    free(d.previous);
    free(d.gray);
    free(d.sums);
    free(d.out);
    if (status == PC_PNG_NO_MEMORY) say(detail, detail_length, "out of memory");
    return status;
}
