// cuSPARSE straight to rocSPARSE (--sparse=rocsparse): handle, stream, matrix descriptor and a
// CSR -> COO row-index expansion, whose calls take the same arguments in both libraries.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h> /* ferry-cuda: <cusparse.h> */

int expand_rows(const int* csr_row_ptr, int nnz, int rows, int* coo_rows, hipStream_t stream) {
  rocsparse_handle /* ferry-cuda: cusparseHandle_t */ handle;
  if (rocsparse_create_handle /* ferry-cuda: cusparseCreate */(&handle) != rocsparse_status_success /* ferry-cuda: CUSPARSE_STATUS_SUCCESS */) return 1;
  rocsparse_set_stream /* ferry-cuda: cusparseSetStream */(handle, stream);
  rocsparse_mat_descr /* ferry-cuda: cusparseMatDescr_t */ descr;
  rocsparse_create_mat_descr /* ferry-cuda: cusparseCreateMatDescr */(&descr);
  rocsparse_set_mat_type /* ferry-cuda: cusparseSetMatType */(descr, rocsparse_matrix_type_general /* ferry-cuda: CUSPARSE_MATRIX_TYPE_GENERAL */);
  rocsparse_set_mat_index_base /* ferry-cuda: cusparseSetMatIndexBase */(descr, rocsparse_index_base_zero /* ferry-cuda: CUSPARSE_INDEX_BASE_ZERO */);
  rocsparse_status /* ferry-cuda: cusparseStatus_t */ s = rocsparse_csr2coo /* ferry-cuda: cusparseXcsr2coo */(handle, csr_row_ptr, nnz, rows, coo_rows, rocsparse_index_base_zero /* ferry-cuda: CUSPARSE_INDEX_BASE_ZERO */);
  rocsparse_destroy_mat_descr /* ferry-cuda: cusparseDestroyMatDescr */(descr);
  rocsparse_destroy_handle /* ferry-cuda: cusparseDestroy */(handle);
  return s == rocsparse_status_success /* ferry-cuda: CUSPARSE_STATUS_SUCCESS */ ? 0 : 1;
}
