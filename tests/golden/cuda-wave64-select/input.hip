// HIP code that picks 64-lane code by the preprocessor: nvcc must build the 32-lane branch.
#include <hip/hip_runtime.h>

#define WARP_SIZE 64

#ifdef WAVE64
#define REDUCE_START 32
#else
#define REDUCE_START 16
#endif

__device__ float warp_sum(float v) {
#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 64
  for (int o = 32; o > 0; o >>= 1) v += __shfl_down(v, o);
#else
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);
#endif
  return v;
}

__global__ void sum(const float* in, float* out) {
  float v = warp_sum(in[threadIdx.x]);
#ifdef __GFX9__
  const int lanes = 64;
#else
  const int lanes = 32;
#endif
  if (threadIdx.x % WARP_SIZE == 0) atomicAdd(out, v * (lanes / 32) + REDUCE_START * 0);
}
