// cuSPARSE's SpSM: solve takes 10 arguments and reuses the buffer given to the analysis;
// hipSPARSE's solve takes that buffer as an 11th. Ferry's compat header spsm.h remembers it per
// descriptor, so setup and solve may sit in different functions, as here.
#include <cusparse.h>

struct Solver {
  cusparseHandle_t handle;
  cusparseSpMatDescr_t A;
  cusparseDnMatDescr_t B, C;
  cusparseSpSMDescr_t spsm;
  void* buffer = nullptr;
};

cusparseStatus_t setup(Solver& s, const float* alpha) {
  size_t size = 0;
  cusparseSpSM_createDescr(&s.spsm);
  cusparseSpSM_bufferSize(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, s.A,
                          s.B, s.C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, s.spsm, &size);
  cudaMalloc(&s.buffer, size);
  return cusparseSpSM_analysis(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                               s.A, s.B, s.C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, s.spsm, s.buffer);
}

cusparseStatus_t solve(Solver& s, const float* alpha) {
  return cusparseSpSM_solve(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, s.A,
                            s.B, s.C, CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, s.spsm);
}
