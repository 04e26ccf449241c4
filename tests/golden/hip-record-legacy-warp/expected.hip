// Pre-CUDA-9 warp intrinsics (HIP has the same names): the way back must not write the _sync forms.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
__device__ int warp_sum(int v) {
  for (int o = (warpSize / 2) /* ferry-cuda: 16 */; o > 0; o /= 2) v += __shfl_down /* ferry-cuda: __shfl_down */(v, o);
  return v;
}

__global__ void any_positive(const float *x, int *flag) {
  const float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  if (__any /* ferry-cuda: __any */(v > 0.0f)) flag[blockIdx.x] = warp_sum(1);
  if (!__all /* ferry-cuda: __all */(v < 1.0f)) flag[blockIdx.x] += __shfl /* ferry-cuda: __shfl */(1, 0);
}
