#include <cuda_runtime.h>

// Lane arithmetic written with 32 and 31 in the roles the wave64 fix rewrites.
__global__ void lane_roles(const int *in, int *out, int n) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  int acc = 0;
  for (int i = lane; i < n; i += 32) acc += in[i];
  acc += __shfl_sync(0xffffffff, acc, 31);
  const int first = warp * 32;
  if (threadIdx.x < 32) out[threadIdx.x] = acc + first;
  const int warps = (blockDim.x + 31) / 32;
  const int nwarp = (threadIdx.x + blockIdx.x * blockDim.x) >> 5;
  out[n + warp] = warps + nwarp;
}
