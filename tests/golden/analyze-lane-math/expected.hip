// Lane arithmetic that assumes 32 lanes (FRY2201-FRY2203), and look-alikes that must not fire.
#include <hip/hip_runtime.h>

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

__global__ void lanes(const unsigned* in, unsigned* out, int n, unsigned hash, size_t bytes) {
  const int tid = threadIdx.x;
  const int lane = tid % 32;                          // FRY2201
  const int warp = tid >> 5;                          // FRY2202
  const int warp2 = tid / 32;                         // FRY2202
  const int warps = (blockDim.x + 31) / 32;           // FRY2202 (a warp count)
  const unsigned bit = 1u << lane;                    // FRY2203
  const unsigned bit2 = 1 << lane_id();               // FRY2203 through the helper
  const unsigned long long wide = 1ull << lane;       // fine: 64-bit
  // not lane ids: sizes, hashes, byte counts, data indices
  const int bucket = hash & 31;
  const bool aligned = n % 32 == 0;
  const size_t words = bytes >> 5;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int word = gid / 32;
  unsigned acc = 0;
  for (int b = 0; b < 32; ++b) acc |= 1u << b;
  out[gid] = in[gid] + bit + bit2 + (unsigned)wide + warp + warp2 + warps + bucket + aligned +
             (unsigned)words + word + acc;
}
