#include <cuda_runtime.h>

// One slot per warp in shared memory, read back by the first warp.
__global__ void block_max(const float *in, float *out) {
  __shared__ float slots[32];
  __shared__ int counts[2][32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  if (lane == 0) slots[warp] = v;
  if (lane == 0) counts[0][warp] = 1;
  __syncthreads();
  v = lane < blockDim.x / 32 ? slots[lane] + counts[0][lane] : 0.0f;
  if (threadIdx.x == 0) *out = v;
}
