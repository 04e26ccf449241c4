// cuSPARSE straight to rocSPARSE (--sparse=rocsparse): handle, stream, matrix descriptor and a
// CSR -> COO row-index expansion, whose calls take the same arguments in both libraries.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

int expand_rows(const int* csr_row_ptr, int nnz, int rows, int* coo_rows, hipStream_t stream) {
  rocsparse_handle handle;
  if (rocsparse_create_handle(&handle) != rocsparse_status_success) return 1;
  rocsparse_set_stream(handle, stream);
  rocsparse_mat_descr descr;
  rocsparse_create_mat_descr(&descr);
  rocsparse_set_mat_type(descr, rocsparse_matrix_type_general);
  rocsparse_set_mat_index_base(descr, rocsparse_index_base_zero);
  rocsparse_status s = rocsparse_csr2coo(handle, csr_row_ptr, nnz, rows, coo_rows, rocsparse_index_base_zero);
  rocsparse_destroy_mat_descr(descr);
  rocsparse_destroy_handle(handle);
  return s == rocsparse_status_success ? 0 : 1;
}
