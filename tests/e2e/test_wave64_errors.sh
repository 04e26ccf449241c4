#!/usr/bin/env bash
# ferry wave64: what the CPU runtime cannot run fails at build time with a message that names it
# (unsupported API, library header, device inline assembly, a 32-bit mask in HIP's _sync forms,
# a launch the driver cannot rewrite, a library the link lacks), and bad usage is refused. Each case is a tiny program.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() {  # check NAME EXPECTED_RC PATTERN FILE [ferry wave64 build args...]
  local name=$1 want_rc=$2 pattern=$3 file=$4
  shift 4
  local out rc
  out=$(cd "$work" && timeout 300 "$FERRY" wave64 build "$file" -o "$work/$name.exe" "$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want_rc ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $rc (want $want_rc), output lacks /$pattern/:"
    sed 's/^/    /' <<<"$out" | head -30
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}

cat > "$work/graph.hip" <<'X'
#include <hip/hip_runtime.h>
int main() { hipGraph_t g = nullptr; hipGraphCreate(&g, 0); hipGraphAddKernelNode(nullptr, g, nullptr, 0, nullptr); }
X
check unsupported-api 1 'wave64 CPU runtime: hipGraphAddKernelNode is not supported \(graph nodes built by hand' graph.hip

cat > "$work/cub.hip" <<'X'
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
int main() {}
X
check library-header 1 'hipcub/hipcub.hpp> \(hipCUB\) is not supported' cub.hip

cat > "$work/asm.cu" <<'X'
__global__ void k(int* out) {
  int field;
  asm volatile("bfe.u32 %0, %1, 4, 8;" : "=r"(field) : "r"(threadIdx.x));
  out[threadIdx.x] = field;
}
void host_barrier() { asm volatile("" ::: "memory"); }
int main() { int* p; cudaMalloc(&p, 4); k<<<1, 32>>>(p); }
X
check device-asm 1 'asm.cu:3:[0-9]+: error: inline assembly in device code cannot run on the wave64 CPU runtime.*\[FRY5601\]' asm.cu

cat > "$work/mask.hip" <<'X'
#include <hip/hip_runtime.h>
__global__ void k(float* v) { v[threadIdx.x] = __shfl_xor_sync(0xffffffff, v[threadIdx.x], 1); }
int main() { float* p; hipMalloc(&p, 256); k<<<1, 64>>>(p); }
X
check hip-32bit-mask 1 'the mask of a _sync warp intrinsic must be a 64-bit integer' mask.hip

cat > "$work/launch.cu" <<'X'
__global__ void k() {}
int main() { auto f = k; (f)<<<1, 1, 0, 0, 0>>>(); }
X
check launch-form 1 'kernel launch the wave64 driver cannot rewrite.*\[FRY5603\]' launch.cu

cat > "$work/ok.cu" <<'X'
#include <cstdio>
__global__ void k(int* p) { p[threadIdx.x] = __ballot_sync(0xffffffffu, threadIdx.x & 1); }
int main() { int* p; cudaMalloc(&p, 128); k<<<1, 32>>>(p); std::printf("%x\n", p[0]); }
X
check cuda-at-wave64 2 'CUDA programs run with 32-lane warps' ok.cu --wave 64
check cuda-builds 0 '' ok.cu
out=$("$work/cuda-builds.exe")
[[ $out == aaaaaaaa ]] && echo "ok   cuda-runs" || { echo "FAIL cuda-runs: got '$out'"; fails=$((fails + 1)); }
check missing-file 2 'no such source file' nope.cu

# A link that fails on another library's symbols names the library (FRY9401), not only ld's exit.
cat > "$work/bench.cu" <<'X'
namespace benchmark { void Initialize(int* argc, char** argv); }
void helper_defined_nowhere(int);
__global__ void k() {}
int main(int argc, char** argv) { benchmark::Initialize(&argc, argv); helper_defined_nowhere(1); k<<<1, 1>>>(); }
X
check unlinked-library 1 'error: wave64 CPU runtime: the program calls Google Benchmark \(benchmark::Initialize\(int\*, char\*\*\)\), and functions no source given defines \(helper_defined_nowhere\(int\)\), which the wave64 build does not link \[FRY9401\]' bench.cu

# At run time: a _sync mask that leaves out the calling lane is reported once per call site
# (the test is inline in the intrinsic; the report names the lane), and the result is computed.
cat > "$work/excl.cu" <<'X'
#include <cstdio>
__global__ void k(int* out) { out[threadIdx.x] = __shfl_sync(0x0000ffffu, (int)threadIdx.x, 3); }
int main() {
  int* p; cudaMalloc(&p, 32 * sizeof(int)); k<<<1, 32>>>(p);
  int h[32]; cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
  printf("lane 20 got %d\n", h[20]);
}
X
out=$(cd "$work" && timeout 300 "$FERRY" wave64 run excl.cu -o "$work/excl.exe" 2>&1); rc=$?
if [[ $rc -eq 0 ]] && grep -q 'excl.cu:2:[0-9]*: wave64: warning: lane 16 calls a _sync intrinsic with a mask that does not include it' <<<"$out" &&
  [[ $(grep -c 'mask that does not include it' <<<"$out") -eq 1 ]] && grep -q 'lane 20 got 3' <<<"$out"; then
  echo "ok   mask-excludes-lane"
else
  echo "FAIL mask-excludes-lane: exit $rc:"; sed 's/^/    /' <<<"$out" | head -20; fails=$((fails + 1))
fi

[[ $fails -eq 0 ]] && echo "all wave64 error cases passed" || echo "$fails failed"
exit $((fails > 0))
