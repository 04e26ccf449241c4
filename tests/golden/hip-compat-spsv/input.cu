// cuSPARSE's SpSV: the solve takes 9 arguments and reuses the buffer given to the analysis;
// hipSPARSE before ROCm 6.0 takes that buffer as a 10th. An incomplete-LU preconditioner solves
// with two triangular factors, each with its own matrix, descriptor and buffer, set up in one
// function and applied in another.
#include <cusparse.h>

struct Factors {
  cusparseHandle_t handle;
  cusparseSpMatDescr_t lower, upper;
  cusparseDnVecDescr_t r, t, z;
  cusparseSpSVDescr_t solve_lower, solve_upper;
  void* buffer_lower = nullptr;
  void* buffer_upper = nullptr;
};

static cusparseStatus_t prepare(Factors& f, cusparseSpMatDescr_t m, cusparseDnVecDescr_t in,
                                cusparseDnVecDescr_t out, cusparseSpSVDescr_t* d, void** buffer) {
  const float one = 1.0f;
  size_t size = 0;
  cusparseSpSV_createDescr(d);
  cusparseSpSV_bufferSize(f.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m, in, out, CUDA_R_32F,
                          CUSPARSE_SPSV_ALG_DEFAULT, *d, &size);
  cudaMalloc(buffer, size);
  return cusparseSpSV_analysis(f.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m, in, out, CUDA_R_32F,
                               CUSPARSE_SPSV_ALG_DEFAULT, *d, *buffer);
}

cusparseStatus_t setup(Factors& f) {
  cusparseStatus_t s = prepare(f, f.lower, f.r, f.t, &f.solve_lower, &f.buffer_lower);
  if (s != CUSPARSE_STATUS_SUCCESS) return s;
  return prepare(f, f.upper, f.t, f.z, &f.solve_upper, &f.buffer_upper);
}

cusparseStatus_t apply(Factors& f) {
  const float one = 1.0f;
  cusparseStatus_t s = cusparseSpSV_solve(f.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, f.lower, f.r, f.t,
                                          CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, f.solve_lower);
  if (s != CUSPARSE_STATUS_SUCCESS) return s;
  return cusparseSpSV_solve(f.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, f.upper, f.t, f.z, CUDA_R_32F,
                            CUSPARSE_SPSV_ALG_DEFAULT, f.solve_upper);
}
