#include <cuda_runtime.h>

// A slot for each warp of a block of at most 1024 threads, summed by the first warp.
__global__ void block_sum_1024(const float *in, float *out) {
  __shared__ float partial[1024 / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) *out = v;
  }
}
