// libFuzzer target: CReducedPNG's decoder (Sources/CReducedPNG) on any bytes. Each chunk's
// CRC is made right before decoding, so mutations reach the header, the zlib stream and the
// filters instead of stopping at the first CRC check; the first byte picks the reduction.
#include "reduced_png.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size) {
    if (size < 2) return 0;
    const int reduction = 1 << (input[0] % 4);  // 1, 2, 4, 8
    size_t n = size - 1;
    uint8_t *data = malloc(n);
    if (!data) return 0;
    memcpy(data, input + 1, n);
    for (size_t at = 8; at + 12 <= n;) {
        const uint32_t length = (uint32_t)data[at] << 24 | (uint32_t)data[at + 1] << 16 | (uint32_t)data[at + 2] << 8 | data[at + 3];
        if (length > n - at - 12) break;
        const uint32_t crc = (uint32_t)crc32(0L, data + at + 4, length + 4);
        uint8_t *end = data + at + 8 + length;
        end[0] = (uint8_t)(crc >> 24), end[1] = (uint8_t)(crc >> 16), end[2] = (uint8_t)(crc >> 8), end[3] = (uint8_t)crc;
        at += 12 + (size_t)length;
    }
    // The caller (GrayImage.decode) picks the reduction so the output fits the pixel limit:
    // so does this, with a limit of 4 MP, or the fuzzer would spend its time on outputs of
    // gigabytes that no caller asks for.
    if (n >= 24) {
        const uint64_t w = (uint64_t)data[16] << 24 | data[17] << 16 | data[18] << 8 | data[19];
        const uint64_t h = (uint64_t)data[20] << 24 | data[21] << 16 | data[22] << 8 | data[23];
        if (((w + reduction - 1) / reduction) * ((h + reduction - 1) / reduction) > 4000000u) {
            free(data);
            return 0;
        }
    }
    uint8_t *pixels = NULL;
    int width = 0, height = 0, dpi = 0;
    char detail[160];
    if (pc_png_read_reduced(data, n, reduction, &pixels, &width, &height, &dpi, detail, sizeof detail) == PC_PNG_OK) {
        // Every output byte is written: reading them all lets ASan and MSan-like checks see it.
        volatile unsigned sum = 0;
        for (size_t i = 0; i < (size_t)width * (size_t)height; i++) sum += pixels[i];
        free(pixels);
    }
    free(data);
    return 0;
}

#ifdef PC_PNG_FUZZ_DRIVER
// Without a libFuzzer runtime (scripts/fuzz-png.sh): each file named is run as it is and in
// RUNS random mutations (bytes changed, cut short, bytes inserted), under ASan and UBSan.
#include <stdio.h>
int main(int argc, char **argv) {
    const long runs = getenv("RUNS") ? atol(getenv("RUNS")) : 20000;
    srand(1);
    for (int f = 1; f < argc; f++) {
        FILE *file = fopen(argv[f], "rb");
        if (!file) return 1;
        uint8_t seed[1 << 16];
        const size_t n = fread(seed, 1, sizeof seed, file);
        fclose(file);
        uint8_t buffer[(1 << 16) + 16];
        for (long r = 0; r <= runs / (argc - 1); r++) {
            size_t m = n;
            memcpy(buffer, seed, n);
            if (r > 0) {
                for (int k = 1 + rand() % 4; k > 0; k--) buffer[rand() % m] = (uint8_t)rand();
                if (rand() % 4 == 0) m = 1 + (size_t)rand() % m;
                if (rand() % 4 == 0 && m + 8 <= sizeof buffer) {
                    const size_t at = (size_t)rand() % m;
                    memmove(buffer + at + 8, buffer + at, m - at);
                    m += 8;
                }
            }
            LLVMFuzzerTestOneInput(buffer, m);
        }
    }
    printf("Done %ld runs\n", runs);
    return 0;
}
#endif
