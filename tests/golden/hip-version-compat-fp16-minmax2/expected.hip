// Packed half-precision maximum and minimum: no HIP release has __hmax2/__hmin2 (or the _nan
// forms) for __half2, so the output includes Ferry's compat header ferry/compat/fp16.h for them
// (and for __hmax, which HIP 5.2 lacks too). A row max-reduction of packed halves, as ML kernels
// write it.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
/* ferry-cuda: #include <cuda_runtime.h> */
#include "ferry/compat/fp16.h"

__device__ __half2 row_max2(const __half2* row, int n) {
  __half2 v = row[0];
  for (int k = 1; k < n; ++k) v = __hmax2(v, row[k]);
  return v;
}

__global__ void clamp2(const __half2* x, __half2* y, __half2* nan_seen, __half* row_max, __half2 lo, __half2 hi,
                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __hmin2(__hmax2(x[i], lo), hi);
  nan_seen[i] = __hmin2_nan(x[i], __hmax2_nan(x[i], lo));
  if (i % 32 == 0) {
    __half2 m = row_max2(x + i, n - i < 32 ? n - i : 32);
    row_max[i / 32] = __hmax(__low2half(m), __high2half(m));
  }
}

int main() {
  __half2 *x, *y, *s;
  __half* m;
  hipMalloc(&x, 256 * sizeof(__half2));
  hipMalloc(&y, 256 * sizeof(__half2));
  hipMalloc(&s, 256 * sizeof(__half2));
  hipMalloc(&m, 8 * sizeof(__half));
  clamp2<<<1, 256>>>(x, y, s, m, __float2half2_rn(0.0f), __float2half2_rn(6.0f), 256);
  hipDeviceSynchronize();
  hipFree(x);
  hipFree(y);
  hipFree(s);
  hipFree(m);
  return 0;
}
