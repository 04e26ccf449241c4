// Half precision and complex numbers on the device.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_complex.h>
#include <hip/hip_fp16.h>
/* ferry-cuda: #include <cuda_runtime.h> */

__global__ void axpy_half(const __half* x, __half* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hadd(__hmul(__float2half(a), x[i]), y[i]);
}

__global__ void rotate(hipFloatComplex* z, hipFloatComplex w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = hipCmulf(z[i], w);
}

float magnitude(hipFloatComplex z) { return hipCabsf(z); }
hipFloatComplex unit() { return make_hipFloatComplex(1.f, 0.f); }
