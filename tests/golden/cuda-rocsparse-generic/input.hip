// rocSPARSE's generic API on the way to cuSPARSE: descriptors map name for name; a staged call
// (one rocSPARSE function, a stage argument) becomes cuSPARSE's function for that stage, or for a
// triangular solve ferry/compat_cusparse.h's.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// rocsparse_spmv took its stage from rocSPARSE 3.0 on; rocsparse_spmv_ex before.
#if ROCSPARSE_VERSION_MAJOR < 3
    #define rocsparse_spmv(...) rocsparse_spmv_ex(__VA_ARGS__)
#endif

// y = A x for an m x n COO matrix A; C = A B for a dense n x k matrix B (column-major).
rocsparse_status products(rocsparse_handle handle, rocsparse_int m, rocsparse_int n, rocsparse_int k,
                          rocsparse_int nnz, rocsparse_int* rows, rocsparse_int* cols, double* vals, double* x,
                          double* y, double* B, double* C) {
  const rocsparse_datatype type = rocsparse_datatype_f64_r;
  const double alpha = 1.0, beta = 0.0;
  rocsparse_spmat_descr A{};
  rocsparse_dnvec_descr vx{}, vy{};
  rocsparse_dnmat_descr mb{}, mc{};
  rocsparse_create_coo_descr(&A, m, n, nnz, rows, cols, vals, rocsparse_indextype_i32, rocsparse_index_base_zero,
                             type);
  rocsparse_create_dnvec_descr(&vx, n, x, type);
  rocsparse_create_dnvec_descr(&vy, m, y, type);
  rocsparse_create_dnmat_descr(&mb, n, k, n, B, type, rocsparse_order_column);
  rocsparse_create_dnmat_descr(&mc, m, k, m, C, type, rocsparse_order_column);

  size_t size = 0;
  rocsparse_status status = rocsparse_spmv(handle, rocsparse_operation_none, &alpha, A, vx, &beta, vy, type,
                                           rocsparse_spmv_alg_default, rocsparse_spmv_stage_buffer_size, &size,
                                           nullptr);
  void* buffer = nullptr;
  if (status == rocsparse_status_success && hipMalloc(&buffer, size) != hipSuccess) status = rocsparse_status_memory_error;
  if (status == rocsparse_status_success)
    status = rocsparse_spmv(handle, rocsparse_operation_none, &alpha, A, vx, &beta, vy, type,
                            rocsparse_spmv_alg_default, rocsparse_spmv_stage_preprocess, &size, buffer);
  if (status == rocsparse_status_success)
    status = rocsparse_spmv(handle, rocsparse_operation_none, &alpha, A, vx, &beta, vy, type,
                            rocsparse_spmv_alg_default, rocsparse_spmv_stage_compute, &size, buffer);
  (void)hipFree(buffer);

  size_t mm_size = 0;
  void* mm_buffer = nullptr;
  if (status == rocsparse_status_success)
    status = rocsparse_spmm(handle, rocsparse_operation_none, rocsparse_operation_none, &alpha, A, mb, &beta, mc,
                            type, rocsparse_spmm_alg_default, rocsparse_spmm_stage_buffer_size, &mm_size, nullptr);
  if (status == rocsparse_status_success && hipMalloc(&mm_buffer, mm_size) != hipSuccess)
    status = rocsparse_status_memory_error;
  if (status == rocsparse_status_success)
    status = rocsparse_spmm(handle, rocsparse_operation_none, rocsparse_operation_none, &alpha, A, mb, &beta, mc,
                            type, rocsparse_spmm_alg_default, rocsparse_spmm_stage_compute, &mm_size, mm_buffer);
  (void)hipFree(mm_buffer);

  rocsparse_destroy_spmat_descr(A);
  rocsparse_destroy_dnvec_descr(vx);
  rocsparse_destroy_dnvec_descr(vy);
  rocsparse_destroy_dnmat_descr(mb);
  rocsparse_destroy_dnmat_descr(mc);
  return status;
}

// y = A^-1 x for a lower triangular CSR matrix A: cuSPARSE's solve needs a descriptor rocSPARSE's has
// no counterpart for, which ferry/compat_cusparse.h keeps per matrix.
rocsparse_status solve(rocsparse_handle handle, rocsparse_spmat_descr A, rocsparse_dnvec_descr x,
                       rocsparse_dnvec_descr y) {
  const float alpha = 1.0f;
  size_t size = 0;
  rocsparse_status status = rocsparse_spsv(handle, rocsparse_operation_none, &alpha, A, x, y, rocsparse_datatype_f32_r,
                                           rocsparse_spsv_alg_default, rocsparse_spsv_stage_buffer_size, &size, nullptr);
  void* buffer = nullptr;
  if (status == rocsparse_status_success && hipMalloc(&buffer, size) != hipSuccess) return rocsparse_status_memory_error;
  if (status == rocsparse_status_success)
    status = rocsparse_spsv(handle, rocsparse_operation_none, &alpha, A, x, y, rocsparse_datatype_f32_r,
                            rocsparse_spsv_alg_default, rocsparse_spsv_stage_preprocess, nullptr, buffer);
  if (status == rocsparse_status_success)
    status = rocsparse_spsv(handle, rocsparse_operation_none, &alpha, A, x, y, rocsparse_datatype_f32_r,
                            rocsparse_spsv_alg_default, rocsparse_spsv_stage_compute, &size, buffer);
  (void)hipFree(buffer);
  return status;
}

int main() {
  rocsparse_handle handle;
  if (rocsparse_create_handle(&handle) != rocsparse_status_success) return 1;
  rocsparse_set_pointer_mode(handle, rocsparse_pointer_mode_host);
  rocsparse_destroy_handle(handle);
  return 0;
}
