// HIP's vector types have arithmetic operators; CUDA's do not.
#include "ferry/compat_cuda_vector.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void axpy4(float4* y, const float4* x, float a, int2* idx, uint4* bits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = x[i] * a + y[i];
  v -= make_float4(1.0f, 1.0f, 1.0f, 1.0f);
  y[i] = -v;
  idx[i] = idx[i] + make_int2(1, 2);
  bits[i] ^= make_uint4(1u, 0u, 0u, 0u);
  const __half h = __float2half(v.x);
  const __half2 pair = __half2(h, h);
  y[i].w = __low2float(pair);
}
