#!/usr/bin/env bash
# The run script of a wave64 suite bundle (bench/wave64_device_bundle.sh copies it in as run.sh):
# `ferry diffrun --wave64 --suite` over the bundle's corpora in one pool (bench/wave64_suite_pool.py),
# on a many-core machine without internet, from the bundle alone (issue 31: one fresh pass of every
# corpus). Run from anywhere: `OUT=DIR BUDGET=500 bash BUNDLE/run.sh`.
#
# Steps: unpack ferry.tar.gz (the `cmake --install` prefix of ferry and the libraries it and the
# programs' builds need) and corpora.tar.xz into WORK; write env.txt (the machine, its compiler, its
# own Google Benchmark/Test and GL/Vulkan headers); stop with FAILED.txt when g++ or python3 is
# missing, ferry does not start, or the runtime cannot build and run smoke.cu; run the pool with a
# deadline that keeps the whole script within BUDGET seconds; pack the results.
#
# Writes under OUT: env.txt, run.log, summary.tsv, tables.txt (every corpus's table), results.json
# ({corpus: the suite's results}), logs.tar.gz (per-program JSON with each side's build command,
# compiler output and run), and FAILED.txt only when it stopped early.
#
# Environment: OUT (required), BUDGET (seconds for the whole script, 500), JOBS (14), W64_THREADS (1),
# CPU_TIMEOUT (120: seconds of CPU per side, all of a process's threads together), MAX_UNIT_JOBS (4),
# CORPORA (names, space-separated; default: every corpus in the bundle), FIRST/LAST (the pool's queue
# order; FIRST defaults to the long units of the issue-31 corpora, longest first), WORK (/tmp/w64suite).
set -u
T0=$(date +%s)
B=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${OUT:?OUT must name the output folder}"
mkdir -p "$OUT"
BUDGET=${BUDGET:-500}
JOBS=${JOBS:-14}
CPU_TIMEOUT=${CPU_TIMEOUT:-120}
MAX_UNIT_JOBS=${MAX_UNIT_JOBS:-4}
export W64_THREADS=${W64_THREADS:-1}
W=${WORK:-/tmp/w64suite}
PACK_S=25 # seconds kept for the tables and the tarball after the pool's deadline
exec > >(tee "$OUT/run.log") 2>&1
elapsed() { echo $(($(date +%s) - T0)); }
fail() {
  echo "FAILED: $*" | tee "$OUT/FAILED.txt"
  exit 1
}

echo "== wave64 suite pass, $(date -u +%FT%TZ), bundle $B"
rm -rf "$W" && mkdir -p "$W/corpora" || fail "cannot create $W"
tar -xzf "$B/ferry.tar.gz" -C "$W" || fail "ferry.tar.gz does not unpack"
names=${CORPORA:-$(tr '\n' ' ' <"$B/corpora.txt")}
members=()
for n in $names; do members+=("$n"); done
tar -xJf "$B/corpora.tar.xz" -C "$W/corpora" "${members[@]}" || fail "corpora.tar.xz lacks one of: $names"
echo "unpacked in $(elapsed) s: ferry, corpora $names"

# The programs' builds: Google Test/Benchmark and boost.context from the bundle, ahead of the
# system's (ferry puts LIBRARY_PATH's folders as -L before the libraries it adds; CPLUS_INCLUDE_PATH
# comes before /usr/include), so that headers and library are one version.
export LIBRARY_PATH="$W/devlib${LIBRARY_PATH:+:$LIBRARY_PATH}"
export CPLUS_INCLUDE_PATH="$W/devinclude${CPLUS_INCLUDE_PATH:+:$CPLUS_INCLUDE_PATH}"
export LD_LIBRARY_PATH="$W/lib:$W/devlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
FERRY=$W/prefix/bin/ferry
if ! "$FERRY" --version >/dev/null 2>&1 && [ -d "$W/lib-fallback" ]; then
  # The build machine's libstdc++, only when the system's is older than the one ferry was built with.
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$W/lib-fallback"
  echo "ferry: the bundle's fallback libstdc++ is used"
fi

{
  echo "nproc: $(nproc)"
  uname -srm
  ldd --version 2>&1 | head -1
  echo "g++: $(command -v g++)"
  g++ --version 2>&1 | head -1
  echo "python3: $(python3 --version 2>&1)"
  free -g | head -2
  echo "system benchmark/gtest: $(ls /usr/lib/x86_64-linux-gnu/libbenchmark* /usr/lib/x86_64-linux-gnu/libgtest* 2>/dev/null | tr '\n' ' ')"
  echo "system benchmark headers: $(ls -d /usr/include/benchmark /usr/include/gtest 2>/dev/null | tr '\n' ' ')"
  echo "system GL/vulkan headers: $(ls -d /usr/include/GL /usr/include/vulkan 2>/dev/null | tr '\n' ' ')"
  echo "bundle: $(cat "$W/MANIFEST.txt" 2>/dev/null | tr '\n' ' ')"
  echo "ferry: $("$FERRY" --version 2>&1 | head -1)"
  echo "budget: $BUDGET s, JOBS=$JOBS W64_THREADS=$W64_THREADS CPU_TIMEOUT=$CPU_TIMEOUT MAX_UNIT_JOBS=$MAX_UNIT_JOBS"
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
command -v g++ >/dev/null || fail "no g++ on this machine"
command -v python3 >/dev/null || fail "no python3 on this machine"
"$FERRY" --version >/dev/null 2>&1 || fail "ferry does not start: $("$FERRY" --version 2>&1 | head -3)"

echo "== smoke test: ferry wave64 run smoke.cu ($(elapsed) s)"
smoke=$(cd "$W" && "$FERRY" wave64 run "$B/smoke.cu" -o "$W/smoke" 2>&1)
echo "$smoke" | tail -20
echo "$smoke" | grep -q '^smoke: ok' || fail "the runtime does not build and run smoke.cu: $(echo "$smoke" | grep -m3 -i error)"

# The long units first, longest first (their CPU-limited sides take up to 2 x CPU_TIMEOUT).
FIRST=${FIRST-'cuda-samples/.*/scan$|How_to_optimize_in_GPU/reduce$|HIP-Examples/gpu-burn$|HIP-Examples/cuda-stream$|how-to-optim-algorithm-in-cuda/cuda-kernels/softmax$|cuda-samples/.*/immaTensorCoreGemm$|cuda-samples/.*/binomialOptions$|rocm-examples/Tutorials/reduction/example$|HIP-Examples/mini-nbody/hip$|cuda-samples/.*/eigenvalues$|cuda-samples/.*/cudaTensorCoreGemm$|rocm-examples/Tutorials/reduction/(test|benchmark)$|cuda-samples/.*/(sortingNetworks|convolutionSeparable|histogram|HSOpticalFlow|reductionMultiBlockCG|mergeSort|transpose)$|HIP-Examples/(add4|rtm8|strided-access|reduction)$|rocm-examples/(Applications/convolution|HIP-Basic/matrix_multiplication)$|code-samples/posts/gups$'}
deadline=$((BUDGET - $(elapsed) - PACK_S))
[ "$deadline" -gt 30 ] || fail "no time left for the pool ($(elapsed) s of $BUDGET s spent)"
echo "== suite pool: JOBS=$JOBS W64_THREADS=$W64_THREADS CPU_TIMEOUT=$CPU_TIMEOUT (per process, all threads) deadline $deadline s"
corpora=()
for n in $names; do corpora+=("$W/corpora/$n"); done
SIZES_OPT=()
[ -f "$B/sizes.txt" ] && SIZES_OPT=(SIZES="$B/sizes.txt")
env JOBS="$JOBS" CPU_TIMEOUT="$CPU_TIMEOUT" TIMEOUT=$((CPU_TIMEOUT + 60)) DEADLINE="$deadline" \
  MAX_UNIT_JOBS="$MAX_UNIT_JOBS" FIRST="$FIRST" LAST="${LAST:-}" "${SIZES_OPT[@]}" \
  timeout -k 5 $((deadline + 15)) python3 "$B/wave64_suite_pool.py" "$FERRY" "$W/out" "${corpora[@]}"
echo "pool exit $? at $(elapsed) s"

echo "== pack ($(elapsed) s so far)"
cp "$W/out/summary.tsv" "$OUT/summary.tsv" 2>/dev/null
: >"$OUT/tables.txt"
for n in $names; do
  [ -f "$W/out/$n/table.txt" ] && { printf '## %s\n' "$n"; cat "$W/out/$n/table.txt"; echo; } >>"$OUT/tables.txt"
done
python3 - "$W/out" "$OUT/results.json" $names <<'EOF'
import json, os, sys
out, dest, names = sys.argv[1], sys.argv[2], sys.argv[3:]
res = {}
for n in names:
    try:
        res[n] = json.load(open(os.path.join(out, n, "results.json")))
    except (OSError, ValueError):
        pass
json.dump(res, open(dest, "w"), indent=1)
EOF
# The per-program logs, without the ports and the build folders (executables, mirrors).
(cd "$W/out" && tar -czf "$OUT/logs.tar.gz" --exclude='*/port' --exclude='*/build' --exclude='*/work' .)
cat "$OUT/summary.tsv" 2>/dev/null
ls -la "$OUT"
echo "== done in $(elapsed) s"
