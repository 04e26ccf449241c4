#!/usr/bin/env bash
# ferry diffrun --wave64: a CUDA program and its HIP port, both run on the wave64 CPU runtime
# (reference with 32-lane warps, port with 64-lane wavefronts). A warp-size-generic program is the
# same on both; one that keeps a ballot in 32 bits differs at wave 64 and is the same at wave 32.
# Both sides see the same argv[0] and the same time() (W64_TIME), which programs print or seed
# their input with. --bisect finds the fix line without which a differing port computes the
# reference's numbers.
source "$(dirname "${BASH_SOURCE[0]}")/diffrun_lib.sh"

mkdir -p "$work/cuda"
cat > "$work/cuda/count.cu" <<'X'
// Counts the positive elements per block with warp ballots.
#include <cstdio>
#include <ctime>
#include <cuda_runtime.h>
__global__ void count_positive(const float* x, int n, int* out) {
  __shared__ int per_warp[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned ballot = __ballot_sync(0xffffffffu, i < n && x[i] > 0.f);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) per_warp[warp] = __popc(ballot);
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) total += per_warp[w];
    out[blockIdx.x] = total;
  }
}
__global__ void sum_warps(const float* x, float* out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}
int main(int, char** argv) {
  const int n = 4096, threads = 256, blocks = n / threads;
  float* x; int* c; float* s;
  cudaMalloc(&x, n * sizeof(float)); cudaMalloc(&c, blocks * sizeof(int)); cudaMalloc(&s, sizeof(float));
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = ((i * 7919) % 13) - 6.0f;
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(s, 0, sizeof(float));
  count_positive<<<blocks, threads>>>(x, n, c);
  sum_warps<<<blocks, threads>>>(x, s);
  int hc[blocks]; float hs;
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hs, s, sizeof hs, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) printf("block %d positive %d\n", b, hc[b]);
  printf("sum %.3f\n", hs);
  printf("%s started at %ld\n", argv[0], (long)time(nullptr));
  return 0;
}
X
"$FERRY" migrate "$work/cuda" --to hip -o "$work/hip" --no-wave64-fix >/dev/null 2>&1 ||
  "$FERRY" migrate "$work/cuda" --to hip -o "$work/hip" >/dev/null 2>&1
run() { (cd "$work" && timeout 600 "$FERRY" diffrun -q --wave64 --ref-dir cuda --port-dir hip --sources count.cu \
  --wave64-work "$work/build" "$@" 2>&1); }
out=$(run); rc=$?
expect ballot-in-32-bits-differs-at-wave64 1 'line 1, col 18: [0-9]+ \(reference\) vs [0-9]+ \(port\)' "$out" $rc
out=$(run --port-wave 32); rc=$?
expect same-at-wave32 0 'verdict: SAME' "$out" $rc
out=$(run --ignore '^block'); rc=$?
expect shuffle-sum-is-warp-generic 0 'verdict: SAME' "$out" $rc
out=$(cd "$work" && "$FERRY" diffrun --wave64 --ref 'true' --ref-dir cuda --port-dir hip --sources count.cu 2>&1); rc=$?
expect wave64-refuses-commands 2 'builds and runs both sides itself' "$out" $rc
# --bisect: a port whose last shuffle sum is taken per 32 lanes (as a wrong fix would write it)
# differs; switching the port's fixes off one at a time finds that line, the other fix sites
# (the widened ballot) still differ without their fix.
"$FERRY" migrate "$work/cuda" --to hip -o "$work/hipbad" >/dev/null 2>&1
sed -i 's/if (threadIdx.x % warpSize == 0) atomicAdd(out, v);/if (threadIdx.x % 32 == 0) atomicAdd(out, v);/' \
  "$work/hipbad/count.cu"
out=$(cd "$work" && timeout 900 "$FERRY" diffrun --wave64 --ref-dir cuda --port-dir hipbad --sources count.cu \
  --wave64-work "$work/bisect-build" --bisect --report "$work/bisect.json" 2>&1); rc=$?
expect bisect-finds-the-fix 1 'the wave64 fix at count.cu:21 makes the difference' "$out" $rc
expect bisect-unfixed-verdict 1 'the port without any wave64 fix: different' "$out" $rc
culprit=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["bisect"]; print(j["culprit"]["line"], len(j["sites"]), [s["verdict"] for s in j["sites"]])' "$work/bisect.json" 2>&1)
expect bisect-json 0 "^21 4 \['different', 'different', 'different', 'same'\]" "$culprit" 0
[[ ! -e "$work/hipbad.ferry-bisect" ]]
expect bisect-variant-removed 0 '' '' $?

# The device model: both sides are built with the same one (gfx906 by default), so a program that
# sizes its grid from the multiprocessor count (cuda-samples' binaryPartitionCG, reduce_v8) runs
# the same grid on both; --device-model native gives each side its API's own (132 SMs vs 60 CUs).
mkdir -p "$work/sm/cuda"
cat > "$work/sm/cuda/grid.cu" <<'X'
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&out[i % 7], 1);
}
int main() {
  int dev = 0, sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, dev);
  const int blocks = 2 * sms;
  int* out; cudaMalloc(&out, 7 * sizeof(int)); cudaMemset(out, 0, 7 * sizeof(int));
  fill<<<blocks, 128>>>(out, 100000);
  int h[7]; cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("launching %d blocks, %zu bytes of shared memory per block\n", blocks, p.sharedMemPerBlock);
  for (int i = 0; i < 7; ++i) printf("%d\n", h[i]);
  return 0;
}
X
"$FERRY" migrate "$work/sm/cuda" --to hip -o "$work/sm/hip" >/dev/null 2>&1
runsm() { (cd "$work/sm" && timeout 600 "$FERRY" diffrun -q --wave64 --ref-dir cuda --port-dir hip --sources grid.cu \
  --wave64-work "$work/sm/build" "$@" 2>&1); }
out=$(runsm); rc=$?
expect same-device-model-by-default 0 'verdict: SAME' "$out" $rc
out=$(runsm --device-model native); rc=$?
expect native-device-models-differ 1 'launching 264 blocks, 49152 bytes' "$out" $rc
out=$(runsm --device-model sm90); rc=$?
expect sm90-on-both-sides 0 'verdict: SAME' "$out" $rc
out=$(cd "$work/sm" && "$FERRY" wave64 run cuda/grid.cu --device gfx906 -o "$work/sm/g" 2>&1); rc=$?
expect wave64-build-device-gfx906 0 'launching 120 blocks, 65536 bytes' "$out" $rc
out=$(cd "$work/sm" && "$FERRY" wave64 run cuda/grid.cu -o "$work/sm/c" 2>&1); rc=$?
expect wave64-build-cuda-default-sm90 0 'launching 264 blocks, 49152 bytes' "$out" $rc
out=$(cd "$work/sm" && "$FERRY" wave64 build cuda/grid.cu --device gfx90a -o "$work/sm/x" 2>&1); rc=$?
expect wave64-build-device-unknown 2 'gfx90a' "$out" $rc

[[ $fails -eq 0 ]] && echo "all diffrun --wave64 cases passed" || echo "$fails failed"
exit $((fails > 0))
