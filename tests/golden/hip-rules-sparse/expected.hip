// cuSPARSE: a CSR sparse matrix-vector product with the generic API.
#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

int spmv(int rows, int cols, int nnz, int* row_ptr, int* col_idx, float* vals, float* x, float* y) {
  hipsparseHandle_t handle;
  if (hipsparseCreate(&handle) != HIPSPARSE_STATUS_SUCCESS) return 1;
  hipsparseSpMatDescr_t A;
  hipsparseDnVecDescr_t vx, vy;
  hipsparseCreateCsr(&A, rows, cols, nnz, row_ptr, col_idx, vals, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                    HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F);
  hipsparseCreateDnVec(&vx, cols, x, HIP_R_32F);
  hipsparseCreateDnVec(&vy, rows, y, HIP_R_32F);
  float alpha = 1.f, beta = 0.f;
  size_t bytes = 0;
  hipsparseSpMV_bufferSize(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, HIP_R_32F,
                          HIPSPARSE_SPMV_ALG_DEFAULT, &bytes);
  void* buffer = nullptr;
  hipMalloc(&buffer, bytes);
  hipsparseSpMV(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, HIP_R_32F,
               HIPSPARSE_SPMV_ALG_DEFAULT, buffer);
  hipFree(buffer);
  hipsparseDestroySpMat(A);
  hipsparseDestroyDnVec(vx);
  hipsparseDestroyDnVec(vy);
  hipsparseDestroy(handle);
  return 0;
}
