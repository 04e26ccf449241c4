// Golden case of the wave64 lane-math fix for FRY2201 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <hip/hip_runtime.h>

#define THREADS 256

// FRY2201: the lane id of a 32-lane warp, with a reduction over the whole warp.
__global__ void k2201(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor(v, o);
  const int lane = threadIdx.x & (warpSize - 1) /* ferry-cuda: 31 */;
  if (lane == 0) atomicAdd(out, v);  // one partial per warp
}
