// Golden case of the wave64 lane-math fix for FRY2205 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <hip/hip_runtime.h>
#include "ferry/compat/minmax.h"

#define THREADS 256

// FRY2205: a butterfly from 16, looped and unrolled.
__global__ void k2205(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = (warpSize / 2) /* ferry-cuda: 16 */; o > 0; o >>= 1) v += __shfl_xor(v, o);
  int m = blockIdx.x * blockDim.x + threadIdx.x;  // the maximum is in the last lane
  for (int ferry_off = warpSize / 2; ferry_off >= 16; ferry_off /= 2) /* ferry-cuda: (none) */ m = max(m, __shfl_down(m, ferry_off /* ferry-cuda: 16 */));
  m = max(m, __shfl_down(m, 8));
  m = max(m, __shfl_down(m, 4));
  m = max(m, __shfl_down(m, 2));
  m = max(m, __shfl_down(m, 1));
  if (threadIdx.x % warpSize == 0) {
    atomicAdd(out, v);
    atomicMax(out + 1, m);
  }
}
