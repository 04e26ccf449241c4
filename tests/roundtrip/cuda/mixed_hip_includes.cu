// A source that builds for both: HIP's headers under USE_HIP, CUDA's otherwise.
#ifdef USE_HIP
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#else
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#endif

__global__ void to_half(const float *x, half *y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half(x[i]);
}
