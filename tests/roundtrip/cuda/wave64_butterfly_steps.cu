#include <cuda_runtime.h>

// An unrolled butterfly: the first step written out, then the smaller ones.
__device__ float warp_sum_unrolled(float v) {
  v += __shfl_xor_sync(0xffffffff, v, 16);
  v += __shfl_xor_sync(0xffffffff, v, 8);
  v += __shfl_xor_sync(0xffffffff, v, 4);
  v += __shfl_xor_sync(0xffffffff, v, 2);
  v += __shfl_xor_sync(0xffffffff, v, 1);
  return v;
}

// The same, each step under a guard on the width of the group.
template <int W> __device__ float group_sum(float v) {
  if (W >= 32) v += __shfl_down_sync(0xffffffff, v, 16);
  if (W >= 16) v += __shfl_down_sync(0xffffffff, v, 8);
  if (W >= 8) v += __shfl_down_sync(0xffffffff, v, 4);
  if (W >= 4) v += __shfl_down_sync(0xffffffff, v, 2);
  if (W >= 2) v += __shfl_down_sync(0xffffffff, v, 1);
  return v;
}

__global__ void sums(const float *in, float *out) {
  const float v = in[threadIdx.x];
  out[threadIdx.x] = warp_sum_unrolled(v) + group_sum<32>(v);
}
