// cuComplex through cublas_v2.h: CUDA's cublas_api.h includes cuComplex.h, HIP 5.x's hipblas.h
// does not include hip_complex.h. Ferry adds <hip/hip_complex.h> (FRY1310).
#include <hipblas/hipblas.h>
#include <hip/hip_runtime.h>
#include <hip/hip_complex.h> /* ferry-cuda: (none) */

__global__ void scale(hipComplex* z, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = hipCmulf(z[i], make_hipComplex(s, 0.0f));
}

int create(hipblasHandle_t* h) { return hipblasCreate(h) == HIPBLAS_STATUS_SUCCESS ? 0 : 1; }
