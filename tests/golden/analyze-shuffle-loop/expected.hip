// Shuffle reductions over 32 lanes (FRY2205), and loops that must not fire.
#include <hip/hip_runtime.h>

__device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = (warpSize / 2) /* ferry-cuda: 16 */; offset > 0; offset >>= 1) v += __shfl_xor(v, offset);
  return v;
}

__device__ float warp_scan(float v) {
  const int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize /* ferry-cuda: 32 */; d <<= 1) {
    const float up = __shfl_up(v, d);
    if (lane >= d) v += up;
  }
  return v;
}

__device__ float already_portable(float v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
  return v;
}

__device__ int no_shuffle(int x) {
  for (int s = 16; s > 0; s >>= 1) x += s;
  return x;
}

__global__ void reduce(const float* in, float* out) {
  float v = warp_sum(in[threadIdx.x]) + warp_scan(in[threadIdx.x]) + already_portable(1.f);
  out[threadIdx.x] = v + no_shuffle(3);
}
