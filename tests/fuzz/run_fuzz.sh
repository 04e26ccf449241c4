#!/usr/bin/env bash
# run_fuzz.sh BUILD_DIR [SECONDS]: builds the libFuzzer targets (tests/fuzz/CMakeLists.txt, clang)
# into BUILD_DIR/fuzz and runs each for SECONDS (default 10; env FUZZ_SECONDS) seeded with the
# golden inputs and examples/. FUZZERS (env) picks them: default lexer_fuzz; migrate_fuzz builds
# all of src/ with clang and the sanitizers (long on 2 cores): FUZZERS="lexer_fuzz migrate_fuzz".
# Exit 0: no crash, hang or broken property; 77: skipped (no clang
# with libFuzzer here); anything else: a finding, with the input libFuzzer wrote (crash-*).
# make test runs the short run (CTest fuzz.short); the 10-minute run: bench/results/fuzz.md.
set -u
BUILD=$(readlink -f "${1:?usage: run_fuzz.sh BUILD_DIR [SECONDS]}")
SECS=${2:-${FUZZ_SECONDS:-10}}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CXX=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$CXX" ]; then echo "fuzz: SKIP: no clang++ (apt-get install clang-14 libclang-rt-14-dev)"; exit 77; fi
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
     "$CXX" -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "fuzz: SKIP: $CXX has no libFuzzer (apt-get install libclang-rt-14-dev)"; exit 77
fi
OUT="$BUILD/fuzz"; mkdir -p "$OUT"
cmake -S "$HERE" -B "$OUT" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$CXX" >"$OUT.configure.log" 2>&1 ||
  { cat "$OUT.configure.log"; exit 1; }
FUZZERS=${FUZZERS:-lexer_fuzz}
# shellcheck disable=SC2086
cmake --build "$OUT" -j "${JOBS:-2}" --target $FUZZERS >"$OUT.build.log" 2>&1 || { tail -40 "$OUT.build.log"; exit 1; }
# Seeds: every golden input and every C-family source of examples/ (copied: libFuzzer adds to
# the corpus folder it is given, and the checkout stays untouched).
SEEDS="$OUT/seeds"; rm -rf "$SEEDS"; mkdir -p "$SEEDS"
i=0
for f in "$ROOT"/tests/golden/*/input.* $(find "$ROOT/examples" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.cpp' -o -name '*.hip' -o -name '*.py' \)); do
  cp "$f" "$SEEDS/seed$((i++))"
done
rc=0
for fuzzer in $FUZZERS; do
  corpus="$OUT/corpus-$fuzzer"; rm -rf "$corpus"; mkdir -p "$corpus"; cp "$SEEDS"/* "$corpus/"
  log="$OUT/$fuzzer.log"
  (cd "$OUT" && "./$fuzzer" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     -artifact_prefix="$OUT/$fuzzer-" "$corpus" >"$log" 2>&1)
  r=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  echo "fuzz: $fuzzer: ${runs:-?} runs in ${SECS}s, $cov, $(ls "$corpus" | wc -l) corpus inputs, exit $r"
  if [ $r -ne 0 ]; then rc=1; grep -E 'ERROR|SUMMARY|==[0-9]+==|artifact' "$log" | head -20; fi
done
exit $rc
