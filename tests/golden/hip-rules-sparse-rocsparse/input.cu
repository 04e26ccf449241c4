// cuSPARSE straight to rocSPARSE (--sparse=rocsparse): handle, stream, matrix descriptor and a
// CSR -> COO row-index expansion, whose calls take the same arguments in both libraries.
#include <cuda_runtime.h>
#include <cusparse.h>

int expand_rows(const int* csr_row_ptr, int nnz, int rows, int* coo_rows, cudaStream_t stream) {
  cusparseHandle_t handle;
  if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) return 1;
  cusparseSetStream(handle, stream);
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
  cusparseStatus_t s = cusparseXcsr2coo(handle, csr_row_ptr, nnz, rows, coo_rows, CUSPARSE_INDEX_BASE_ZERO);
  cusparseDestroyMatDescr(descr);
  cusparseDestroy(handle);
  return s == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}
