#include <cuda_runtime.h>

template <class T> __device__ T warp_sum(unsigned int mask, T v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(mask, v, offset);
  return v;
}

// One partial sum per warp, then the first warp adds them (only the lanes that hold one vote).
__global__ void block_sum(const float *in, float *out, unsigned int n) {
  extern __shared__ float partial[];
  const unsigned int tid = threadIdx.x;
  const unsigned int mask = __ballot_sync(0xffffffff, tid < n);
  float v = tid < n ? in[tid] : 0.0f;
  v = warp_sum<float>(mask, v);
  if ((tid % warpSize) == 0) partial[tid / warpSize] = v;
  __syncthreads();
  const unsigned int warps = (blockDim.x / warpSize) > 0 ? (blockDim.x / warpSize) : 1;
  const unsigned int voters = __ballot_sync(mask, tid < warps);
  if (tid < warps) {
    v = warp_sum<float>(voters, partial[tid]);
    if (tid == 0) *out = v;
  }
}
