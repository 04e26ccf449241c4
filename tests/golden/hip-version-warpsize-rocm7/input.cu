// A kernel from a tree already partly ported to HIP: on ROCm 7.0 warpSize is a runtime value, so
// the uses that need a constant no longer compile (FRY2301); runtime uses are fine.
#include <hip/hip_runtime.h>

template <int Width>
__device__ float tile_sum(float v) {
  for (int offset = Width / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset, Width);
  return v;
}

enum { kWave = warpSize };
constexpr int kLanes = warpSize;
static_assert(warpSize % 32 == 0, "wavefronts are 32 or 64 wide");

__global__ void __launch_bounds__(4 * warpSize) reduce(const float* in, float* out) {
  __shared__ float partial[1024 / warpSize];
  float v = tile_sum<warpSize>(in[blockIdx.x * blockDim.x + threadIdx.x]);
  const int lane = threadIdx.x % warpSize;  // runtime: fine
  if (lane == 0) partial[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x < blockDim.x / warpSize && lane < warpSize) out[blockIdx.x] = partial[threadIdx.x];
  switch (lane) {
    case warpSize - 1: out[0] = v; break;
    default: break;
  }
}
