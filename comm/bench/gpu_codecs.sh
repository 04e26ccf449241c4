#!/usr/bin/env bash
# Build and run the GPU codec benchmark (comm/cuda/bench/gpu_codecs_bench.cu) on a machine with an
# NVIDIA GPU and nvcc; results (gpu_codecs.{md,json} and the log) go to OUT_DIR.
#   comm/bench/gpu_codecs.sh OUT_DIR
# Needs only nvcc and a C++20 host compiler: the GPU codecs are comm/cuda/codecs/*.cu, the CPU reference
# codecs are compiled from comm/src/codecs (the eb comparison also needs zstd.h and libzstd; without
# them it checks the bound only).
# Env: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc), ARCH (default: the GPU's, e.g. sm_90),
# N (elements, default 64Mi), REPS (20). Bounded: build <= 300 s (one nvcc call for the bench and the
# four codec files, ~85 s of CPU on the 2-core dev VM), run <= 60 s.
set -u -o pipefail
if [ $# -ne 1 ]; then echo "usage: $0 OUT_DIR" >&2; exit 2; fi
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out" || { echo "gpu_codecs: cannot create $out" >&2; exit 1; }
out=$(cd "$out" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "gpu_codecs: nvcc not found (set NVCC=...)" >&2; exit 1; }
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "gpu_codecs: no NVIDIA GPU visible (nvidia-smi -L failed)" >&2; exit 1; }
arch=${ARCH:-}
if [ -z "$arch" ]; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  arch=sm_${cap:-90}
fi
eb_flags=() eb_libs=() eb_srcs=()
if [ -f /usr/include/zstd.h ] || [ -f /usr/local/include/zstd.h ]; then
  eb_flags=(-DFERRY_GPU_BENCH_CPU_EB) eb_libs=(-lzstd) eb_srcs=("$root/comm/src/codecs/eb.cpp")
else
  echo "gpu_codecs: zstd.h not found: eb is checked against its bound, not bit for bit against the CPU codec"
fi
bin="$out/ferrycomm-gpu-bench"
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo "# $("$nvcc" --version | tail -1)"
} > "$out/gpu_codecs.log"
echo "gpu_codecs: building with $nvcc -arch=$arch"
timeout 300 "$nvcc" -arch="$arch" -std=c++20 -O3 -fmad=false -Xcompiler -ffp-contract=off "${eb_flags[@]}" \
  -I"$root/comm/cuda/include" -I"$root/comm/include" \
  "$root/comm/cuda/bench/gpu_codecs_bench.cu" "$root"/comm/cuda/codecs/*.cu \
  "$root/comm/src/codecs/intq.cpp" "${eb_srcs[@]}" "${eb_libs[@]}" -o "$bin" 2>&1 | tee -a "$out/gpu_codecs.log"
[ -x "$bin" ] || { echo "gpu_codecs: build failed (see $out/gpu_codecs.log)" >&2; exit 1; }
echo "gpu_codecs: running"
timeout 60 "$bin" --n "${N:-67108864}" --reps "${REPS:-20}" --out "$out" 2>&1 | tee -a "$out/gpu_codecs.log"
rc=${PIPESTATUS[0]}
rm -f "$bin"
case $rc in
  0) echo "gpu_codecs: PASS; results in $out/gpu_codecs.md and gpu_codecs.json" ;;
  124) echo "gpu_codecs: FAIL: benchmark timed out after 60 s" >&2 ;;
  *) echo "gpu_codecs: FAIL (exit $rc); see $out/gpu_codecs.log" >&2 ;;
esac
exit $rc
