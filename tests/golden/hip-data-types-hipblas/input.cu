// cudaDataType in cuBLAS calls. ROCm 5.2's hipBLAS has no hipblasAxpyEx_v2 (6.0): the call is
// reported (FRY1301) and left as it is, and its data-type arguments are not turned into
// hipBLAS 5.2's own hipblasDatatype_t; outside library calls CUDA_R_32F is HIP_R_32F.
#include <cublas_v2.h>
#include <library_types.h>

cudaDataType element_type() { return CUDA_R_32F; }

int axpy(cublasHandle_t handle, int n, const float* alpha, const float* x, float* y) {
  cudaDataType t = CUDA_R_32F;
  return cublasAxpyEx(handle, n, alpha, CUDA_R_32F, x, (cudaDataType)t, 1, y, CUDA_R_32F, 1, CUDA_R_32F);
}
