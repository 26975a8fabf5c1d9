#!/usr/bin/env bash
# Bounded-time fuzzing of the PNG decoder that reads images over the pixel limit
# (Sources/CReducedPNG) with libFuzzer, ASan and UBSan, built with the Swift toolchain's clang.
#   FUZZ_SECONDS=60 (total time)  FUZZ_TIMEOUT=5 (per input, s)  FUZZ_MAX_LEN=65536
# Without a libFuzzer runtime in the toolchain: random mutations of the seeds, same sanitizers.
# Crashing inputs are kept under .build-png/fuzz/.
set -euo pipefail
source "$(dirname "$0")/env.sh"
bash "$ROOT/scripts/bootstrap.sh"  # zlib's header (base row)
cd "$ROOT"
SECONDS_TOTAL="${FUZZ_SECONDS:-60}"
TIMEOUT="${FUZZ_TIMEOUT:-5}"
MAX_LEN="${FUZZ_MAX_LEN:-65536}"
OUT="${FUZZ_OUT:-.build-png/fuzz}"
mkdir -p "$OUT/corpus"
# Seeds: small PNGs of every colour type and bit depth, each row with one of the five filters,
# written here (Python's zlib; no image library needed). The first byte picks the reduction (2).
python3 - "$OUT/corpus" <<'PY'
import struct, sys, zlib
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
w, h, i = 37, 23, 0
for colour, depths in ((0, (1, 2, 4, 8, 16)), (2, (8, 16)), (3, (1, 2, 4, 8)), (4, (8, 16)), (6, (8, 16))):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    for depth in depths:
        row_bytes = (w * channels * depth + 7) // 8
        raw = b"".join(bytes([y % 5]) + bytes((x * 7 + y * 13) % 256 for x in range(row_bytes)) for y in range(h))
        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0))
        if colour == 3:
            png += chunk(b"PLTE", bytes(v % 256 for v in range(0, 3 * (1 << depth) * 5, 5)))
        png += chunk(b"pHYs", struct.pack(">IIB", 11811, 11811, 1)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
        open(f"{sys.argv[1]}/seed{i}", "wb").write(b"\x01" + png)
        i += 1
PY
i=$(find "$OUT/corpus" -name 'seed*' | wc -l)
CLANG="$(dirname "$(command -v swiftc)")/clang"
if [ -n "$(find "$(dirname "$(dirname "$(command -v swiftc)")")/lib" -name 'libclang_rt.fuzzer-*.a' 2>/dev/null | head -1)" ]; then
    echo "building libFuzzer target (ASan + UBSan + fuzzer) with $CLANG..." >&2
    "$CLANG" -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -I Sources/CReducedPNG/include Sources/CReducedPNG/reduced_png.c scripts/fuzz/PNGFuzz.c -lz -o "$OUT/png-fuzz"
    echo "fuzzing for ${SECONDS_TOTAL}s (timeout ${TIMEOUT}s per input, max_len ${MAX_LEN}, ${i} seeds)" >&2
    "$OUT/png-fuzz" -max_total_time="$SECONDS_TOTAL" -timeout="$TIMEOUT" -max_len="$MAX_LEN" \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/" "$OUT/corpus"
else
    echo "no libFuzzer runtime: random mutations of the seeds under ASan + UBSan instead" >&2
    "$CLANG" -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -DPC_PNG_FUZZ_DRIVER \
        -I Sources/CReducedPNG/include Sources/CReducedPNG/reduced_png.c scripts/fuzz/PNGFuzz.c -lz -o "$OUT/png-mutate"
    RUNS="$((SECONDS_TOTAL * 2000))" "$OUT/png-mutate" "$OUT"/corpus/seed*
fi
