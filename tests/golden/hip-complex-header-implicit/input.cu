// cuComplex through cublas_v2.h: CUDA's cublas_api.h includes cuComplex.h, HIP 5.x's hipblas.h
// does not include hip_complex.h. Ferry adds <hip/hip_complex.h> (FRY1310).
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void scale(cuComplex* z, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = cuCmulf(z[i], make_cuComplex(s, 0.0f));
}

int create(cublasHandle_t* h) { return cublasCreate(h) == CUBLAS_STATUS_SUCCESS ? 0 : 1; }
