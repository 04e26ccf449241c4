// --hip-data-types (HIPIFY's --use-hip-data-types) with --blas=rocblas: hipDataType instead of
// rocblas_datatype in every call; rocSPARSE calls keep rocsparse_datatype.
#include <cublas_v2.h>
#include <library_types.h>

cudaDataType element_type() { return CUDA_R_32F; }

int gemm(cublasHandle_t handle, int n, const float* a, float* c, cudaDataType t) {
  const float one = 1.f;
  return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n, a, t, n, &one, c,
                      CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
