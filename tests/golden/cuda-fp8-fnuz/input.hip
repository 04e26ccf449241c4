// AMD's FNUZ FP8 types become Ferry's compat types, which keep HIP's bits (bias 8/16, NaN at 0x80,
// no -0) and convert to and from float exactly.
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>

__global__ void decode(const __hip_fp8_e4m3_fnuz* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = float(in[i]);
}

__global__ void encode(const float* in, __hip_fp8_e5m2_fnuz* out, unsigned char* bits, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __hip_fp8_e5m2_fnuz(in[i]);
    bits[i] = out[i].__x;
  }
}
