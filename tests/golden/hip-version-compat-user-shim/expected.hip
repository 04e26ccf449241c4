// A project that already carries its own HIP shim for a name Ferry's compat headers provide
// (__hmax2 on __half2, which no HIP release has): the project's definition serves, so the output
// does not include ferry/compat/fp16.h for it (that would be a redefinition).
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
/* ferry-cuda: #include <cuda_runtime.h> */

#if defined(__HIPCC__ /* ferry-cuda: __HIPCC__ */)
__device__ __forceinline__ __half2 __hmax2(const __half2 a, const __half2 b) {
  return __halves2half2(__float2half(fmaxf(__low2float(a), __low2float(b))),
                        __float2half(fmaxf(__high2float(a), __high2float(b))));
}
#endif

__global__ void relu2(const __half2* x, __half2* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hmax2(x[i], __float2half2_rn(0.0f));
}

int main() {
  __half2 *x, *y;
  hipMalloc(&x, 256 * sizeof(__half2));
  hipMalloc(&y, 256 * sizeof(__half2));
  relu2<<<1, 256>>>(x, y, 256);
  hipDeviceSynchronize();
  hipFree(x);
  hipFree(y);
  return 0;
}
