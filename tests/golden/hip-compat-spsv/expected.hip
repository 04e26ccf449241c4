// cuSPARSE's SpSV: the solve takes 9 arguments and reuses the buffer given to the analysis;
// hipSPARSE before ROCm 6.0 takes that buffer as a 10th. An incomplete-LU preconditioner solves
// with two triangular factors, each with its own matrix, descriptor and buffer, set up in one
// function and applied in another.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hipsparse/hipsparse.h>
#include "ferry/compat/spsv.h"

struct Factors {
  hipsparseHandle_t handle;
  hipsparseSpMatDescr_t lower, upper;
  hipsparseDnVecDescr_t r, t, z;
  hipsparseSpSVDescr_t solve_lower, solve_upper;
  void* buffer_lower = nullptr;
  void* buffer_upper = nullptr;
};

static hipsparseStatus_t prepare(Factors& f, hipsparseSpMatDescr_t m, hipsparseDnVecDescr_t in,
                                hipsparseDnVecDescr_t out, hipsparseSpSVDescr_t* d, void** buffer) {
  const float one = 1.0f;
  size_t size = 0;
  hipsparseSpSV_createDescr(d);
  hipsparseSpSV_bufferSize(f.handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, m, in, out, HIP_R_32F,
                          HIPSPARSE_SPSV_ALG_DEFAULT, *d, &size);
  hipMalloc(buffer, size);
  return ferry_hipsparseSpSV_analysis /* ferry-cuda: cusparseSpSV_analysis */(f.handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, m, in, out, HIP_R_32F,
                               HIPSPARSE_SPSV_ALG_DEFAULT, *d, *buffer);
}

hipsparseStatus_t setup(Factors& f) {
  hipsparseStatus_t s = prepare(f, f.lower, f.r, f.t, &f.solve_lower, &f.buffer_lower);
  if (s != HIPSPARSE_STATUS_SUCCESS) return s;
  return prepare(f, f.upper, f.t, f.z, &f.solve_upper, &f.buffer_upper);
}

hipsparseStatus_t apply(Factors& f) {
  const float one = 1.0f;
  hipsparseStatus_t s = ferry_hipsparseSpSV_solve /* ferry-cuda: cusparseSpSV_solve */(f.handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, f.lower, f.r, f.t,
                                          HIP_R_32F, HIPSPARSE_SPSV_ALG_DEFAULT, f.solve_lower);
  if (s != HIPSPARSE_STATUS_SUCCESS) return s;
  return ferry_hipsparseSpSV_solve /* ferry-cuda: cusparseSpSV_solve */(f.handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &one, f.upper, f.t, f.z, HIP_R_32F,
                            HIPSPARSE_SPSV_ALG_DEFAULT, f.solve_upper);
}
