#!/usr/bin/env bash
# One device call for the FlashAttention work of examples/llama_ops (issue 30), on an NVIDIA GPU:
# builds the library as written (ORIG) and its CUDA -> HIP -> CUDA round trip (RT, when given),
# -j16, then bench/llama_ops_flash_bench.py (WMMA and scalar forward, GQA, decode against SDPA)
# and, when FERRY is given, `ferry opcheck` of the FlashAttention operators on both builds.
# Usage: bench/llama_ops_flash_gpu.sh OUT ORIG_TREE [RT_TREE] [BIN_DIR with ferry + its .so files]
# Environment: BENCH_ARGS (e.g. --quick), PROFILE=1 (one ncu run of each kernel: OUT/ncu.txt),
#   OPCHECK_ONLY (default: the two flash forward operators),
#   MAKE_ARGS (extra make variables), VARIANTS ("name:-DA=1,-DB=2 ..." more builds of ORIG, timed
#   with --variant into OUT/variants.md).
set -u -o pipefail
mkdir -p "$1" && out=$(cd "$1" && pwd)
orig=$(cd "$2" && pwd) rt=${3:+$(cd "$3" && pwd)} bin=${4:+$(cd "$4" && pwd)}
here=$(cd "$(dirname "$0")" && pwd)
exec > >(tee "$out/run.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
nvcc --version | tail -1
t0=$(date +%s)
pids=()
for tree in "$orig" $rt; do
  (make -C "$tree" -j16 capi ${MAKE_ARGS:-} >"$out/build-$(basename "$tree").log" 2>&1 || echo "BUILD FAILED $tree") &
  pids+=($!)
done
# VARIANTS="name:-DMACRO=1 name2:-D..." builds copies of ORIG with extra flags (compared by --variant).
for v in ${VARIANTS:-}; do
  name=${v%%:*} flags=${v#*:}
  rm -rf "/tmp/variant-$name" && cp -a "$orig" "/tmp/variant-$name" && rm -rf "/tmp/variant-$name/build"
  (make -C "/tmp/variant-$name" -j16 capi ARCH="-arch=sm_90 ${flags//,/ }" >/dev/null 2>&1 || echo "BUILD FAILED $name") &
  pids+=($!)
done
wait "${pids[@]}"
echo "built in $(( $(date +%s) - t0 )) s"
grep -h "BUILD FAILED\|error" "$out"/build-*.log | head -20
PYTHONUNBUFFERED=1 timeout "${BENCH_TIMEOUT:-400}" python3 "$here/llama_ops_flash_bench.py" --lib "$orig/build/libllama_ops_capi.so" \
  --out "$out" ${BENCH_ARGS:-}
echo "bench exit $?"
for v in ${VARIANTS:-}; do
  name=${v%%:*}
  echo "== variant $name (${v#*:})"
  PYTHONUNBUFFERED=1 timeout 120 python3 "$here/llama_ops_flash_bench.py" --lib "/tmp/variant-$name/build/libllama_ops_capi.so" \
    --out "/tmp/variant-$name/out" --variant | grep -E "^\| [0-9]" | tee -a "$out/variants.md"
done
if [ -n "${PROFILE:-}" ] && command -v ncu >/dev/null; then
  # One short profile: each kernel once (ours, SDPA's flash forward and split-KV decode).
  timeout 240 ncu --clock-control none -k regex:flash --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats \
    --section SchedulerStats python3 "$here/llama_ops_flash_bench.py" --lib "$orig/build/libllama_ops_capi.so" \
    --out "$out" --profile >"$out/ncu.txt" 2>&1
  echo "ncu exit $?"; grep -E "^  [a-z_:]+.*flash|Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy" "$out/ncu.txt" | head -60
fi
if [ -n "$bin" ] && [ -x "$bin/ferry" ]; then
  export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  only=()
  for o in ${OPCHECK_ONLY:-flash_attention flash_attention_causal}; do only+=(--only "$o"); done
  timeout "${OPCHECK_TIMEOUT:-200}" "$bin/ferry" opcheck "$orig/opcheck/llama_ops.json" \
    --var LLAMA_OPS_ORIG="$orig/build" --var LLAMA_OPS_RT="${rt:-$orig}/build" --python python3 \
    --report "$out/opcheck.json" "${only[@]}" >"$out/opcheck.txt" 2>&1
  echo "opcheck exit $?"; tail -4 "$out/opcheck.txt"
fi
