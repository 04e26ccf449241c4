// Half precision and complex numbers on the device.
#include <cuComplex.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void axpy_half(const __half* x, __half* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hadd(__hmul(__float2half(a), x[i]), y[i]);
}

__global__ void rotate(cuFloatComplex* z, cuFloatComplex w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = cuCmulf(z[i], w);
}

float magnitude(cuFloatComplex z) { return cuCabsf(z); }
cuFloatComplex unit() { return make_cuFloatComplex(1.f, 0.f); }
