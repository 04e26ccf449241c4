// Shared arrays sized per 32-lane warp and indexed by a warp index (FRY2209), and a tile that
// must not fire.
#include <hip/hip_runtime.h>

__global__ void block_sum(const float* in, float* out) {
  __shared__ float partial[64 /* ferry-cuda: 32 */];
  __shared__ float tile[32][33];
  const int warp = threadIdx.x / warpSize;
  const int lane = threadIdx.x % warpSize;
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  if (lane == 0) partial[warp] = tile[threadIdx.x][threadIdx.y];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < 32; ++w) s += partial[w];
    *out = s;
  }
}
