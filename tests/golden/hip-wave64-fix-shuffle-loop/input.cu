// Golden case of the wave64 lane-math fix for FRY2205 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <cuda_runtime.h>

#define THREADS 256

// FRY2205: a butterfly from 16, looped and unrolled.
__global__ void k2205(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  int m = blockIdx.x * blockDim.x + threadIdx.x;  // the maximum is in the last lane
  m = max(m, __shfl_down_sync(0xffffffff, m, 16));
  m = max(m, __shfl_down_sync(0xffffffff, m, 8));
  m = max(m, __shfl_down_sync(0xffffffff, m, 4));
  m = max(m, __shfl_down_sync(0xffffffff, m, 2));
  m = max(m, __shfl_down_sync(0xffffffff, m, 1));
  if (threadIdx.x % warpSize == 0) {
    atomicAdd(out, v);
    atomicMax(out + 1, m);
  }
}
