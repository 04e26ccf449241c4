// AMD's FNUZ FP8 types become Ferry's compat types, which keep HIP's bits (bias 8/16, NaN at 0x80,
// no -0) and convert to and from float exactly.
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cuda_fp8.h>

__global__ void decode(const ferry::cuda_compat::fp8_e4m3_fnuz* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = float(in[i]);
}

__global__ void encode(const float* in, ferry::cuda_compat::fp8_e5m2_fnuz* out, unsigned char* bits, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = ferry::cuda_compat::fp8_e5m2_fnuz(in[i]);
    bits[i] = out[i].__x;
  }
}
