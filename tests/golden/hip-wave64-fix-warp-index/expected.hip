// Golden case of the wave64 lane-math fix for FRY2202 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <hip/hip_runtime.h>

#define THREADS 256

// FRY2202: the warp index of a 32-lane warp, slots read back by warp count.
__global__ void k2202(const int* in, int* out) {
  __shared__ int partial[64 /* ferry-cuda: 32 */];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor(v, o);
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize /* ferry-cuda: >> 5 */;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) s += partial[w];
    atomicAdd(out, s);
  }
}
