// Golden case of the wave64 lane-math fix for FRY2204 through a template default (the same kernel runs in
// tests/wave64/fixes/kinds.cu under tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without
// the fix and right with it).
#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_AMD__) /* ferry-cuda: (none) */
#define WARP_SIZE 64  // ferry: wavefront width of gfx906
#else
#define WARP_SIZE 32
#endif

// FRY2204 through a template parameter's default: `template <int kWarpSize = WARP_SIZE>`.
template <int kWarpSize = WARP_SIZE>
__device__ __forceinline__ int warp_sum(int v) {
  for (int m = kWarpSize >> 1; m >= 1; m >>= 1) v += __shfl_xor(v, m);
  return v;
}
__global__ void k2204t(const int* in, int* out) {
  const int v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}
