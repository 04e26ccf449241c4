// cuSPARSE: a CSR sparse matrix-vector product with the generic API.
#include <cuda_runtime.h>
#include <cusparse.h>

int spmv(int rows, int cols, int nnz, int* row_ptr, int* col_idx, float* vals, float* x, float* y) {
  cusparseHandle_t handle;
  if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) return 1;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  cusparseCreateCsr(&A, rows, cols, nnz, row_ptr, col_idx, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vx, cols, x, CUDA_R_32F);
  cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F);
  float alpha = 1.f, beta = 0.f;
  size_t bytes = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                          CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  void* buffer = nullptr;
  cudaMalloc(&buffer, bytes);
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cudaFree(buffer);
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(handle);
  return 0;
}
