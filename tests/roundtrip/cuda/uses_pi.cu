// Uses a math_constants.h name that comes through a header of its own: no include of its own.
#include "quoted_math_constants.cuh"

__global__ void scale_by_pi(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = half_turn(x[i]) + CUDART_PI_F;
}
