// rocSPARSE's generic API on the way to cuSPARSE: descriptors map name for name; a staged call
// (one rocSPARSE function, a stage argument) becomes cuSPARSE's function for that stage, or for a
// triangular solve ferry/compat_cusparse.h's.
#include "ferry/compat_cusparse.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cusparse.h>

// rocsparse_spmv took its stage from rocSPARSE 3.0 on; rocsparse_spmv_ex before.
#if 3 /* ferry: ROCSPARSE_VERSION_MAJOR */ < 3
    #define rocsparse_spmv(...) rocsparse_spmv_ex(__VA_ARGS__)
#endif

// y = A x for an m x n COO matrix A; C = A B for a dense n x k matrix B (column-major).
cusparseStatus_t products(cusparseHandle_t handle, int m, int n, int k,
                          int nnz, int* rows, int* cols, double* vals, double* x,
                          double* y, double* B, double* C) {
  const cudaDataType type = CUDA_R_64F;
  const double alpha = 1.0, beta = 0.0;
  cusparseSpMatDescr_t A{};
  cusparseDnVecDescr_t vx{}, vy{};
  cusparseDnMatDescr_t mb{}, mc{};
  cusparseCreateCoo(&A, m, n, nnz, rows, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                             type);
  cusparseCreateDnVec(&vx, n, x, type);
  cusparseCreateDnVec(&vy, m, y, type);
  cusparseCreateDnMat(&mb, n, k, n, B, type, CUSPARSE_ORDER_COL);
  cusparseCreateDnMat(&mc, m, k, m, C, type, CUSPARSE_ORDER_COL);

  size_t size = 0;
  cusparseStatus_t status = cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, type,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &size);
  void* buffer = nullptr;
  if (status == CUSPARSE_STATUS_SUCCESS && cudaMalloc(&buffer, size) != cudaSuccess) status = CUSPARSE_STATUS_ALLOC_FAILED;
  if (status == CUSPARSE_STATUS_SUCCESS)
    status = cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, type,
                            CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  if (status == CUSPARSE_STATUS_SUCCESS)
    status = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, type,
                            CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  (void)cudaFree(buffer);

  size_t mm_size = 0;
  void* mm_buffer = nullptr;
  if (status == CUSPARSE_STATUS_SUCCESS)
    status = cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mb, &beta, mc,
                            type, CUSPARSE_SPMM_ALG_DEFAULT, &mm_size);
  if (status == CUSPARSE_STATUS_SUCCESS && cudaMalloc(&mm_buffer, mm_size) != cudaSuccess)
    status = CUSPARSE_STATUS_ALLOC_FAILED;
  if (status == CUSPARSE_STATUS_SUCCESS)
    status = cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mb, &beta, mc,
                            type, CUSPARSE_SPMM_ALG_DEFAULT, mm_buffer);
  (void)cudaFree(mm_buffer);

  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroyDnMat(mb);
  cusparseDestroyDnMat(mc);
  return status;
}

// y = A^-1 x for a lower triangular CSR matrix A: cuSPARSE's solve needs a descriptor rocSPARSE's has
// no counterpart for, which ferry/compat_cusparse.h keeps per matrix.
cusparseStatus_t solve(cusparseHandle_t handle, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                       cusparseDnVecDescr_t y) {
  const float alpha = 1.0f;
  size_t size = 0;
  cusparseStatus_t status = ferry::cusparse_compat::spsv_buffer_size(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y, CUDA_R_32F,
                                           CUSPARSE_SPSV_ALG_DEFAULT, &size);
  void* buffer = nullptr;
  if (status == CUSPARSE_STATUS_SUCCESS && cudaMalloc(&buffer, size) != cudaSuccess) return CUSPARSE_STATUS_ALLOC_FAILED;
  if (status == CUSPARSE_STATUS_SUCCESS)
    status = ferry::cusparse_compat::spsv_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y, CUDA_R_32F,
                            CUSPARSE_SPSV_ALG_DEFAULT, buffer);
  if (status == CUSPARSE_STATUS_SUCCESS)
    status = ferry::cusparse_compat::spsv_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, y, CUDA_R_32F,
                            CUSPARSE_SPSV_ALG_DEFAULT);
  (void)cudaFree(buffer);
  return status;
}

int main() {
  cusparseHandle_t handle;
  if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) return 1;
  cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST);
  cusparseDestroy(handle);
  return 0;
}
