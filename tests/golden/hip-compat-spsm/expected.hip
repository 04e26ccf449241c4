// cuSPARSE's SpSM: solve takes 10 arguments and reuses the buffer given to the analysis;
// hipSPARSE's solve takes that buffer as an 11th. Ferry's compat header spsm.h remembers it per
// descriptor, so setup and solve may sit in different functions, as here.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hipsparse/hipsparse.h>
#include "ferry/compat/spsm.h"

struct Solver {
  hipsparseHandle_t handle;
  hipsparseSpMatDescr_t A;
  hipsparseDnMatDescr_t B, C;
  hipsparseSpSMDescr_t spsm;
  void* buffer = nullptr;
};

hipsparseStatus_t setup(Solver& s, const float* alpha) {
  size_t size = 0;
  hipsparseSpSM_createDescr(&s.spsm);
  hipsparseSpSM_bufferSize(s.handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, s.A,
                          s.B, s.C, HIP_R_32F, HIPSPARSE_SPSM_ALG_DEFAULT, s.spsm, &size);
  hipMalloc(&s.buffer, size);
  return ferry_hipsparseSpSM_analysis /* ferry-cuda: cusparseSpSM_analysis */(s.handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                               s.A, s.B, s.C, HIP_R_32F, HIPSPARSE_SPSM_ALG_DEFAULT, s.spsm, s.buffer);
}

hipsparseStatus_t solve(Solver& s, const float* alpha) {
  return ferry_hipsparseSpSM_solve /* ferry-cuda: cusparseSpSM_solve */(s.handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, s.A,
                            s.B, s.C, HIP_R_32F, HIPSPARSE_SPSM_ALG_DEFAULT, s.spsm);
}
