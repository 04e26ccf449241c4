// Pre-CUDA-9 warp intrinsics (HIP has the same names): the way back must not write the _sync forms.
__device__ int warp_sum(int v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);
  return v;
}

__global__ void any_positive(const float *x, int *flag) {
  const float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  if (__any(v > 0.0f)) flag[blockIdx.x] = warp_sum(1);
  if (!__all(v < 1.0f)) flag[blockIdx.x] += __shfl(1, 0);
}
