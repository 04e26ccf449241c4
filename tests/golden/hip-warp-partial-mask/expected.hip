// Reductions over part of a warp: the mask is a parameter, a half-warp literal or a ballot.
// HIP 5.2 has no masked intrinsics: each call is converted and reported (FRY2101).
#include <hip/hip_runtime.h>

__device__ float segment_sum(float v, unsigned mask, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2)
    v += __shfl_down(/* ferry-cuda: __shfl_down_sync(mask,  */ v, offset, width);
  return v;
}

__global__ void sum_tail(const float* x, int n, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Only lanes holding an element take part: the mask comes from a ballot.
  unsigned active = __ballot(i < n);
  if (i < n) {
    float v = x[i];
    for (int offset = 8; offset > 0; offset /= 2)
      v += __shfl_xor(/* ferry-cuda: __shfl_xor_sync(active,  */ v, offset);
    if ((threadIdx.x & 15) == 0) atomicAdd(out, v);
  }
  float h = __shfl(/* ferry-cuda: __shfl_sync(0x0000ffff,  */ i < n ? x[i] : 0.f, 0, 16);
  if (__any(/* ferry-cuda: __any_sync(0xffff0000,  */ h > 0.f)) out[1] = h;
}
