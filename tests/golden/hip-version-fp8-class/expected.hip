// cuda_fp8.h's C++ classes (__nv_fp8_e4m3, __nv_fp8x2_e5m2, ...) have no HIP counterpart and are
// not in Ferry's compat header: each use is left as written with FRY1001, whose hint names the C
// API that is (__nv_fp8_storage_t and __nv_cvt_*). The include still becomes ferry/compat/fp8.h.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include "ferry/compat/fp8.h"

__global__ void to_fp8(const float* x, __nv_fp8_e4m3* q, __nv_fp8x2_e5m2* q2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = __nv_fp8_e4m3(x[i]);
  if (i < n / 2) q2[i] = __nv_fp8x2_e5m2(make_float2(x[2 * i], x[2 * i + 1]));
}
