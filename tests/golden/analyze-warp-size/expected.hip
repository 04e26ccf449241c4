// Warp-width constants fixed at 32 (FRY2204); tile sizes and warp counts that must not fire.
#include <hip/hip_runtime.h>

#define WARP_SIZE 32
#define TILE 32
constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = 32;

__global__ void strided(const float* in, float* out, int n) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / kWarpSize;
  __shared__ float tile[TILE][TILE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int i = lane; i < n; i += WARP_SIZE) out[i] = tile[threadIdx.x][threadIdx.y] + warp;
  out[0] += kWarpsPerBlock;
}
