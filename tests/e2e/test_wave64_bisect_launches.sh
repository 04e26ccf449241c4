#!/usr/bin/env bash
# ferry diffrun --wave64 --bisect, the launch half (src/diffrun/launch_bisect.h): a program of
# three kernels whose middle one has a lane-width bug in the port. Both sides run again with the
# runtime's launch trace (W64_TRACE); the first launch whose outputs differ is the middle kernel,
# and the port with that launch replaced by the original's computes what the reference does.
# The same on a HIP program at wave 32 against 64 (no fixes to switch off: launches only). And a
# BOTH FAILED verdict names a construct the runtime does not run as a GPU would (FRY9411).
source "$(dirname "${BASH_SOURCE[0]}")/diffrun_lib.sh"

mkdir -p "$work/cuda"
cat > "$work/cuda/groups.cu" <<'X'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void shift(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.25f + 2.0f;
}
// Sum of each aligned group of 32 elements, given to every element of the group: a shuffle
// reduction over the warp, then lane 0 broadcast (the default width is the 32-lane warp).
__global__ void group32(const float* x, float* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int d = 16; d >= 1; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
  v = __shfl_sync(0xffffffffu, v, 0);
  if (i < n) g[i] = v;
}
__global__ void sum_all(const float* g, int n, float* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < n; ++k) s += g[k];
    out[0] = s;
  }
}
int main() {
  const int n = 2048;
  static float h[n];
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 13);
  float *x, *g, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&g, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  shift<<<n / 128, 128>>>(x, n);
  group32<<<n / 128, 128>>>(x, g, n);
  sum_all<<<1, 64>>>(g, n, out);
  float s = 0.0f;
  cudaMemcpy(&s, out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum of group sums %.1f\n", s);
  return 0;
}
X
"$FERRY" migrate "$work/cuda" --to hip -o "$work/hip" -q >/dev/null 2>&1
out=$(cd "$work" && timeout 900 "$FERRY" diffrun --wave64 --ref-dir cuda --port-dir hip --sources groups.cu \
  --wave64-work "$work/build" --bisect --report "$work/bisect.json" 2>&1); rc=$?
expect differs 1 'verdict: DIFFERENT' "$out" $rc
expect first-kernel 1 'launch 1 \(group32\) differs first: buffer 1 \(8192 bytes, read as float\)' "$out" $rc
expect replaced-is-same 1 'the port with launch 1 replaced by the original.s: same' "$out" $rc
expect conclusion 1 'the first kernel whose outputs differ is launch 1, group32 \(groups.cu:9\); with that launch replaced' "$out" $rc
expect fix-in-kernel 1 'in the kernel: wave64 fix at groups.cu:12' "$out" $rc
expect hazard-in-kernel 1 'in the kernel: FRY2205 at groups.cu:12' "$out" $rc
got=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["bisect"]["launches"]; print(b["first"], b["kernel"], b["site"]["line"], b["site"]["end_line"], b["inputs_equal"], b["replaced_verdict"], b["ref_launches"], b["port_launches"])' "$work/bisect.json" 2>&1)
expect launches-json 0 '^1 group32 9 15 True same 3 3$' "$got" 0

# A HIP program at wave 32 against 64: --bisect has no fixes to switch off and bisects launches.
"$FERRY" migrate "$work/cuda" --to hip -o "$work/hipraw" --no-wave64-fix -q >/dev/null 2>&1
out=$(cd "$work" && timeout 900 "$FERRY" diffrun --wave64 --ref-api hip --ref-wave 32 --ref-dir hipraw \
  --port-dir hipraw --sources groups.cu --wave64-work "$work/build-hip" --bisect 2>&1); rc=$?
expect hip-differs 1 'verdict: DIFFERENT' "$out" $rc
expect hip-first-kernel 1 'launch 1, group32 \(groups.cu:9\); with that launch replaced by the original.s, the port computes what the reference does' "$out" $rc
if grep -q 'without any wave64 fix' <<<"$out"; then
  echo "FAIL hip-no-fix-bisect: a HIP reference has no fixes to switch off"
  fails=$((fails + 1))
fi

# A program built without launches traced (no kernel at all): the launch half says so.
mkdir -p "$work/nk/cuda" "$work/nk/hip"
printf '#include <cstdio>\n#include <cuda_runtime.h>\nint main() { int w = 0; cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, 0); printf("%%d\\n", w); return 0; }\n' > "$work/nk/cuda/w.cu"
"$FERRY" migrate "$work/nk/cuda" --to hip -o "$work/nk/hip2" -q >/dev/null 2>&1
out=$(cd "$work/nk" && timeout 600 "$FERRY" diffrun --wave64 --ref-dir cuda --port-dir hip2 --sources w.cu \
  --wave64-work "$work/nk/build" --bisect --ignore '^$' 2>&1); rc=$?
expect no-launches 1 'launches not compared: no kernel launch was traced' "$out" $rc
# FRY9411: a kernel whose body is under `#if __CUDA_ARCH__ >= 700` is empty on the runtime (one
# host pass, __CUDA_ARCH__ undefined); both sides fail their check, and the verdict names it.
mkdir -p "$work/arch/cuda"
cat > "$work/arch/cuda/arch.cu" <<'X'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(int* out) {
#if __CUDA_ARCH__ >= 700
  out[threadIdx.x] = 1;
#endif
}
int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  fill<<<1, 64>>>(d);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int s = 0;
  for (int i = 0; i < 64; ++i) s += h[i];
  printf(s == 64 ? "Test passed\n" : "Test FAILED\n");
  return s == 64 ? 0 : 1;
}
X
"$FERRY" migrate "$work/arch/cuda" --to hip -o "$work/arch/hip" -q >/dev/null 2>&1
out=$(cd "$work/arch" && timeout 600 "$FERRY" diffrun --wave64 --ref-dir cuda --port-dir hip --sources arch.cu \
  --wave64-work "$work/arch/build" --report "$work/arch.json" 2>&1); rc=$?
expect arch-both-failed 1 'verdict: BOTH FAILED' "$out" $rc
expect arch-named 1 'note: arch.cu:4: `#if __CUDA_ARCH__ >= 700`: the wave64 runtime compiles kernels in the host pass.*\[FRY9411\]' "$out" $rc
got=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["constructs"]; print(c[0]["code"], c[0]["line"])' "$work/arch.json" 2>&1)
expect arch-json 0 '^FRY9411 4$' "$got" 0
exit $((fails > 0))
