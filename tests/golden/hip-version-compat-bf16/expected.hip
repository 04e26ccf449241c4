// A bfloat16 dot product. HIP 5.2 has no hip/hip_bf16.h (only the hip_bfloat16 class): the
// include becomes Ferry's compat header, which gives the HIP 6.0 names.
#include <hip/hip_runtime.h>
#include "ferry/compat/bf16.h"

__global__ void dot(const __hip_bfloat16* x, const __hip_bfloat16* y, float* out, int n) {
  float acc = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += __bfloat162float(__hmul(x[i], y[i]));
  __hip_bfloat16 partial = __float2bfloat16(acc);
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    partial = __hadd(partial, __shfl_xor(partial, offset));
  if (threadIdx.x == 0) atomicAdd(out, __bfloat162float(partial));
}

void fill(__hip_bfloat16* host, int n) {
  for (int i = 0; i < n; ++i) host[i] = __float2bfloat16_rn(0.5f * i);
  __hip_bfloat162 /* ferry-cuda: nv_bfloat162 */ pair = __floats2bfloat162_rn(1.f, 2.f);
  host[0] = __low2bfloat16(pair);
}
