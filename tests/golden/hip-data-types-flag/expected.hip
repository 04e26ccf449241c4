// --hip-data-types (HIPIFY's --use-hip-data-types) with --blas=rocblas: hipDataType instead of
// rocblas_datatype in every call; rocSPARSE calls keep rocsparse_datatype.
#include <rocblas/rocblas.h>
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/library_types.h>

hipDataType element_type() { return HIP_R_32F; }

int gemm(rocblas_handle handle, int n, const float* a, float* c, hipDataType t) {
  const float one = 1.f;
  return rocblas_gemm_ex /* ferry-cuda: cublasGemmEx */(handle, rocblas_operation_none, rocblas_operation_none, n, n, n, &one, a, HIP_R_32F, n, a, t, n, &one, c,
                      HIP_R_32F, n, CUBLAS_COMPUTE_32F, rocblas_gemm_algo_standard);
}
