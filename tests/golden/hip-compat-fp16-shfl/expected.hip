// Warp reductions over __half and __half2 (CUDA's cuda_fp16.hpp shuffles): HIP 5.2's __shfl*
// have no half overloads, so the output includes Ferry's ferry/compat/fp16_shfl.h. The float
// shuffle keeps HIP's own overload.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
#include "ferry/compat/fp16_shfl.h"
#include "ferry/compat/fp16.h"

__device__ __half warp_sum(__half v) {
  for (int offset = (warpSize / 2) /* ferry-cuda: 16 */; offset > 0; offset >>= 1) v = __hadd(v, __shfl_down(v, offset));
  return v;
}

__device__ half2 warp_max2(half2 v) {
  for (int mask = (warpSize / 2) /* ferry-cuda: 16 */; mask > 0; mask >>= 1) v = __hmax2(v, __shfl_xor(v, mask, warpSize /* ferry-cuda: 32 */));
  return v;
}

__global__ void reduce(const __half* in, __half* out, const half2* in2, half2* out2, float* f) {
  __half s = warp_sum(in[threadIdx.x]);
  half2 m = warp_max2(in2[threadIdx.x]);
  float x = __shfl(f[threadIdx.x], 0);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = s;
    out2[blockIdx.x] = m;
    f[blockIdx.x] = x;
  }
}
