// cudaDataType in cuBLAS calls. ROCm 5.2's hipBLAS has no hipblasAxpyEx_v2 (6.0): the call is
// reported (FRY1301) and left as it is, and its data-type arguments are not turned into
// hipBLAS 5.2's own hipblasDatatype_t; outside library calls CUDA_R_32F is HIP_R_32F.
#include <hipblas/hipblas.h>
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/library_types.h>

hipDataType element_type() { return HIP_R_32F; }

int axpy(hipblasHandle_t handle, int n, const float* alpha, const float* x, float* y) {
  hipDataType t = HIP_R_32F;
  return cublasAxpyEx(handle, n, alpha, HIP_R_32F, x, (hipDataType)t, 1, y, HIP_R_32F, 1, HIP_R_32F);
}
