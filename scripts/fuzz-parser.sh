#!/usr/bin/env bash
# Bounded-time fuzzing of the PriceParsing module with libFuzzer.
#   FUZZ_SECONDS=60 (total time)  FUZZ_TIMEOUT=2 (per input, s)  FUZZ_MAX_LEN=4096
# Falls back to a long randomized run of the property test when the compiler
# has no libFuzzer runtime.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"
SECONDS_TOTAL="${FUZZ_SECONDS:-60}"
TIMEOUT="${FUZZ_TIMEOUT:-2}"
MAX_LEN="${FUZZ_MAX_LEN:-4096}"
OUT="${FUZZ_OUT:-.build-parser/fuzz}"
mkdir -p "$OUT/corpus"

# a seed corpus of realistic lines
i=0
while IFS= read -r line; do
  printf '%s' "$line" > "$OUT/corpus/seed$i"; i=$((i+1))
done <<'SEEDS'
Milch 2,59 A
$1,234.56 €1.234,56 1 234,56 € CHF 1'234.50
₹1,00,000.00 12,- € .99 99¢ ¥1,280 1280円
€10–20 $10 - $20 -€5.00 €5.00- Rabatt 5,00-
1O,50 € 12 .99 12, 99 S12.99 12,99 E 1.234.56
25/12/2018 2018-12-25 12.03.2020 8:13:39 +49 30 1234567 (030) 123 456
19 % 500 g 0,2 L 2x x2 4006381333931 A12B3
SUMME EUR 7,16
合計 ¥1,280
SEEDS

if swiftc -sanitize=fuzzer -parse-as-library -module-name FuzzProbe - -o "$OUT/probe" </dev/null 2>/dev/null \
   || [ -n "$(find "$(dirname "$(dirname "$(command -v swiftc)")")/lib" -name 'libclang_rt.fuzzer-*.a' 2>/dev/null | head -1)" ]; then
  echo "building libFuzzer target (ASan + fuzzer)..." >&2
  mapfile -t sources < <(parser_sources)
  swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PriceParsingFuzz \
    "${sources[@]}" scripts/fuzz/ParserFuzz.swift -o "$OUT/parser-fuzz"
  echo "fuzzing for ${SECONDS_TOTAL}s (timeout ${TIMEOUT}s per input, max_len ${MAX_LEN})" >&2
  # The parser's tables are built once, in Swift's lazy global initialisers (swift_once), and
  # live for the process. LeakSanitizer reports some of them as leaked: Swift keeps enum case
  # bits in a pointer's spare bits (`.shared(fallback:members:)` in a dictionary), so the
  # scan for pointers does not see them. Leaks allocated under a one-time initialiser are
  # therefore not reported; every other leak still fails the run.
  printf 'leak:swift::threading_impl::once_slow\n' > "$OUT/lsan.supp"
  LSAN_OPTIONS="suppressions=$OUT/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
  "$OUT/parser-fuzz" -max_total_time="$SECONDS_TOTAL" -timeout="$TIMEOUT" -max_len="$MAX_LEN" \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/" "$OUT/corpus"
else
  echo "no libFuzzer runtime: running the randomized property test instead" >&2
  timeout "$((SECONDS_TOTAL + 600))" swift test --scratch-path .build-parser --filter 'PriceParsingTests.RoundTripPropertyTests'
fi
