// HIP warp code: legacy intrinsics act on the whole wavefront, ballots are 64-bit.
#include <cuda_runtime.h>

__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return __shfl_sync(0xffffffff, v, 0);
}

__global__ void stats(const float* x, unsigned long long* masks, int* counts, float* sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  unsigned long long positive = __ballot_sync(0xffffffff, v > 0.f);
  auto active = (unsigned long long)__activemask();
  int lane = threadIdx.x % 32;
  float s = warp_sum(v);
  float up = __shfl_up_sync(0xffffffff, v, 1, 16) + __shfl_xor_sync(0xffffffff, v, 1);
  if (lane == 0) {
    masks[i / warpSize] = positive;
    counts[i / warpSize] = __popcll(__ballot_sync(0xffffffff, v < 0.f)) + __popcll(active);
    sums[i / warpSize] = s + up;
  }
  if (__any_sync(0xffffffff, v < 0.f) && !__all_sync(0xffffffff, v < 0.f)) counts[0] += ((unsigned long long)__ballot_sync(0xffffffff, v != 0.f) >> 16) & 1;
  __syncwarp();
}
