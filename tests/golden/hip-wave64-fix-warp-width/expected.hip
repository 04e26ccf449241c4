// Golden case of the wave64 lane-math fix for FRY2204 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_AMD__) /* ferry-cuda: (none) */
#define WARP_SIZE 64  // ferry: wavefront width of gfx906
#else
#define WARP_SIZE 32
#endif
#define THREADS 256

// FRY2204: a warp-width constant mixed with warpSize.
__global__ void k2204(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor(v, o);
  if (threadIdx.x % WARP_SIZE == 0) atomicAdd(out, v);
}
