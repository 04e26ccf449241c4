// HIP warp code: legacy intrinsics act on the whole wavefront, ballots are 64-bit.
#include <hip/hip_runtime.h>

__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  return __shfl(v, 0);
}

__global__ void stats(const float* x, unsigned long long* masks, int* counts, float* sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  unsigned long long positive = __ballot(v > 0.f);
  auto active = __ballot(1);
  int lane = threadIdx.x % __AMDGCN_WAVEFRONT_SIZE;
  float s = warp_sum(v);
  float up = __shfl_up(v, 1, 16) + __shfl_xor(v, 1);
  if (lane == 0) {
    masks[i / warpSize] = positive;
    counts[i / warpSize] = __popcll(__ballot(v < 0.f)) + __popcll(active);
    sums[i / warpSize] = s + up;
  }
  if (__any(v < 0.f) && !__all(v < 0.f)) counts[0] += (__ballot(v != 0.f) >> 16) & 1;
  (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
}
