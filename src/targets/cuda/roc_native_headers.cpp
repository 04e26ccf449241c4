// The text of the two side headers roc_native_pass writes beside the files that need them
// (docs/targets.md, "cuda"): ferry/compat_cusparse.h and ferry/compat_cusolver.h. Data, kept apart
// from the pass's logic; their names are in compat_header.h.
#include <string_view>

#include "targets/cuda/compat_header.h"

namespace ferry::targets::cuda {

// ferry/compat_cusparse.h: rocSPARSE calls whose cuSPARSE twin CUDA 12 removed, written with
// cuSPARSE's generic API, and the size_t buffer sizes of calls whose twin writes an int; each
// gives the same result as the rocSPARSE call.
const std::string_view kCusparseHeaderText =
    R"(// ferry/compat_cusparse.h: written by Ferry's HIP -> CUDA migration (ferry migrate --to cuda).
// rocSPARSE calls whose cuSPARSE twin CUDA 12.0 removed, through cuSPARSE's generic API, and the
// size_t buffer sizes of calls whose cuSPARSE twin writes an int.
// Regenerated on every migration: edit the migrated code, not this file.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusparse.h>

namespace ferry {
namespace cusparse_compat {
namespace detail {
template <class T> struct data_type;
template <> struct data_type<float> { static constexpr cudaDataType value = CUDA_R_32F; };
template <> struct data_type<double> { static constexpr cudaDataType value = CUDA_R_64F; };
template <> struct data_type<cuComplex> { static constexpr cudaDataType value = CUDA_C_32F; };
template <> struct data_type<cuDoubleComplex> { static constexpr cudaDataType value = CUDA_C_64F; };
}  // namespace detail

// rocSPARSE's *_buffer_size write a size_t; cuSPARSE's *_bufferSize an int (CUDA 13's library
// exports no size_t *_bufferSizeExt form of most of them). f(args..., &n), then *size = n.
template <class F, class... A>
inline cusparseStatus_t int_buffer_size(F f, std::size_t* size, A... args) {
  int n = 0;
  const cusparseStatus_t s = f(args..., &n);
  if (s == CUSPARSE_STATUS_SUCCESS) *size = static_cast<std::size_t>(n);
  return s;
}

namespace detail {
// Descriptors and a work buffer of one generic call, released on every path.
struct Generic {
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  cusparseDnMatDescr_t b = nullptr, c = nullptr;
  void* buffer = nullptr;
  Generic() = default;
  Generic(const Generic&) = delete;
  Generic& operator=(const Generic&) = delete;
  ~Generic() {
    cudaFree(buffer);
    if (a) cusparseDestroySpMat(a);
    if (x) cusparseDestroyDnVec(x);
    if (y) cusparseDestroyDnVec(y);
    if (b) cusparseDestroyDnMat(b);
    if (c) cusparseDestroyDnMat(c);
  }
  // Allocates `size` bytes of work buffer.
  cusparseStatus_t allocate(std::size_t size) {
    return size == 0 || cudaMalloc(&buffer, size) == cudaSuccess ? CUSPARSE_STATUS_SUCCESS
                                                                  : CUSPARSE_STATUS_ALLOC_FAILED;
  }
};

// y = alpha op(A) x + beta y through cusparseSpMV, A already described (a general matrix).
template <class T>
inline cusparseStatus_t spmv(cusparseHandle_t handle, cusparseOperation_t trans, Generic& g, std::int64_t rows,
                             std::int64_t cols, const T* alpha, const T* x, const T* beta, T* y) {
  const bool t = trans != CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cudaDataType type = data_type<T>::value;
  cusparseStatus_t s = cusparseCreateDnVec(&g.x, t ? rows : cols, const_cast<T*>(x), type);
  if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseCreateDnVec(&g.y, t ? cols : rows, y, type);
  std::size_t size = 0;
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMV_bufferSize(handle, trans, alpha, g.a, g.x, beta, g.y, type, CUSPARSE_SPMV_ALG_DEFAULT, &size);
  if (s == CUSPARSE_STATUS_SUCCESS) s = g.allocate(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMV(handle, trans, alpha, g.a, g.x, beta, g.y, type, CUSPARSE_SPMV_ALG_DEFAULT, g.buffer);
  cudaStream_t stream = nullptr;
  if (s == CUSPARSE_STATUS_SUCCESS && cusparseGetStream(handle, &stream) == CUSPARSE_STATUS_SUCCESS &&
      cudaStreamSynchronize(stream) != cudaSuccess)  // the buffer is freed on return
    s = CUSPARSE_STATUS_EXECUTION_FAILED;
  return s;
}
}  // namespace detail

// rocsparse_?csrmv (removed from cuSPARSE in CUDA 12.0): y = alpha op(A) x + beta y for the m x n
// CSR matrix A, through cusparseSpMV; only a general matrix (rocSPARSE also reads symmetric and
// triangular descriptors; then CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED). rocSPARSE's optional
// analysis info is not taken.
template <class T>
inline cusparseStatus_t csrmv(cusparseHandle_t handle, cusparseOperation_t trans, int m, int n, int nnz,
                              const T* alpha, const cusparseMatDescr_t descr, const T* csr_val, const int* csr_row_ptr,
                              const int* csr_col_ind, const T* x, const T* beta, T* y) {
  if (cusparseGetMatType(descr) != CUSPARSE_MATRIX_TYPE_GENERAL) return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  detail::Generic g;
  const cusparseStatus_t s = cusparseCreateCsr(&g.a, m, n, nnz, const_cast<int*>(csr_row_ptr),
                                               const_cast<int*>(csr_col_ind), const_cast<T*>(csr_val),
                                               CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, cusparseGetMatIndexBase(descr),
                                               detail::data_type<T>::value);
  return s != CUSPARSE_STATUS_SUCCESS ? s : detail::spmv(handle, trans, g, m, n, alpha, x, beta, y);
}

// rocsparse_?coomv: the same for an m x n COO matrix (cuSPARSE never had a coomv).
template <class T>
inline cusparseStatus_t coomv(cusparseHandle_t handle, cusparseOperation_t trans, int m, int n, int nnz,
                              const T* alpha, const cusparseMatDescr_t descr, const T* coo_val, const int* coo_row_ind,
                              const int* coo_col_ind, const T* x, const T* beta, T* y) {
  if (cusparseGetMatType(descr) != CUSPARSE_MATRIX_TYPE_GENERAL) return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  detail::Generic g;
  const cusparseStatus_t s = cusparseCreateCoo(&g.a, m, n, nnz, const_cast<int*>(coo_row_ind),
                                               const_cast<int*>(coo_col_ind), const_cast<T*>(coo_val),
                                               CUSPARSE_INDEX_32I, cusparseGetMatIndexBase(descr),
                                               detail::data_type<T>::value);
  return s != CUSPARSE_STATUS_SUCCESS ? s : detail::spmv(handle, trans, g, m, n, alpha, x, beta, y);
}

// rocsparse_?csrmm (csrmm/csrmm2 removed from cuSPARSE): C = alpha op(A) op(B) + beta C for the
// m x k CSR matrix A and column-major dense B (ldb) and C (ldc) with n columns, through
// cusparseSpMM; only a general matrix.
template <class T>
inline cusparseStatus_t csrmm(cusparseHandle_t handle, cusparseOperation_t trans_A, cusparseOperation_t trans_B, int m,
                              int n, int k, int nnz, const T* alpha, const cusparseMatDescr_t descr, const T* csr_val,
                              const int* csr_row_ptr, const int* csr_col_ind, const T* B, int ldb, const T* beta, T* C,
                              int ldc) {
  if (cusparseGetMatType(descr) != CUSPARSE_MATRIX_TYPE_GENERAL) return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  const cudaDataType type = detail::data_type<T>::value;
  const bool ta = trans_A != CUSPARSE_OPERATION_NON_TRANSPOSE, tb = trans_B != CUSPARSE_OPERATION_NON_TRANSPOSE;
  const std::int64_t inner = ta ? m : k, rows_c = ta ? k : m;  // op(A) is rows_c x inner
  detail::Generic g;
  cusparseStatus_t s = cusparseCreateCsr(&g.a, m, k, nnz, const_cast<int*>(csr_row_ptr), const_cast<int*>(csr_col_ind),
                                         const_cast<T*>(csr_val), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         cusparseGetMatIndexBase(descr), type);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseCreateDnMat(&g.b, tb ? n : inner, tb ? inner : n, ldb, const_cast<T*>(B), type, CUSPARSE_ORDER_COL);
  if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseCreateDnMat(&g.c, rows_c, n, ldc, C, type, CUSPARSE_ORDER_COL);
  std::size_t size = 0;
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMM_bufferSize(handle, trans_A, trans_B, alpha, g.a, g.b, beta, g.c, type, CUSPARSE_SPMM_ALG_DEFAULT,
                                &size);
  if (s == CUSPARSE_STATUS_SUCCESS) s = g.allocate(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMM(handle, trans_A, trans_B, alpha, g.a, g.b, beta, g.c, type, CUSPARSE_SPMM_ALG_DEFAULT, g.buffer);
  cudaStream_t stream = nullptr;
  if (s == CUSPARSE_STATUS_SUCCESS && cusparseGetStream(handle, &stream) == CUSPARSE_STATUS_SUCCESS &&
      cudaStreamSynchronize(stream) != cudaSuccess)
    s = CUSPARSE_STATUS_EXECUTION_FAILED;
  return s;
}

namespace detail {
// One cuSPARSE solve descriptor per sparse matrix, created on first use and kept until the program
// ends: rocSPARSE's staged rocsparse_spsv/spsm calls keep their analysis in the matrix, cuSPARSE's
// in a descriptor the calls share.
template <class D, cusparseStatus_t (*Create)(D*)>
inline cusparseStatus_t solve_descr(const void* matrix, D* out) {
  static std::mutex lock;
  static std::map<const void*, D> descrs;
  const std::lock_guard<std::mutex> guard(lock);
  auto it = descrs.find(matrix);
  if (it == descrs.end()) {
    D d = nullptr;
    const cusparseStatus_t s = Create(&d);
    if (s != CUSPARSE_STATUS_SUCCESS) return s;
    it = descrs.emplace(matrix, d).first;
  }
  *out = it->second;
  return CUSPARSE_STATUS_SUCCESS;
}
}  // namespace detail

// rocsparse_spsv at its three stages: cusparseSpSV_bufferSize, _analysis and _solve with the
// matrix's descriptor (the solve reads the buffer given to the analysis).
inline cusparseStatus_t spsv_buffer_size(cusparseHandle_t handle, cusparseOperation_t trans, const void* alpha,
                                         cusparseConstSpMatDescr_t A, cusparseConstDnVecDescr_t x,
                                         cusparseDnVecDescr_t y, cudaDataType type, cusparseSpSVAlg_t alg,
                                         std::size_t* size) {
  cusparseSpSVDescr_t d = nullptr;
  const cusparseStatus_t s = detail::solve_descr<cusparseSpSVDescr_t, cusparseSpSV_createDescr>(A, &d);
  return s != CUSPARSE_STATUS_SUCCESS ? s : cusparseSpSV_bufferSize(handle, trans, alpha, A, x, y, type, alg, d, size);
}
inline cusparseStatus_t spsv_analysis(cusparseHandle_t handle, cusparseOperation_t trans, const void* alpha,
                                      cusparseConstSpMatDescr_t A, cusparseConstDnVecDescr_t x, cusparseDnVecDescr_t y,
                                      cudaDataType type, cusparseSpSVAlg_t alg, void* buffer) {
  cusparseSpSVDescr_t d = nullptr;
  const cusparseStatus_t s = detail::solve_descr<cusparseSpSVDescr_t, cusparseSpSV_createDescr>(A, &d);
  return s != CUSPARSE_STATUS_SUCCESS ? s : cusparseSpSV_analysis(handle, trans, alpha, A, x, y, type, alg, d, buffer);
}
inline cusparseStatus_t spsv_solve(cusparseHandle_t handle, cusparseOperation_t trans, const void* alpha,
                                   cusparseConstSpMatDescr_t A, cusparseConstDnVecDescr_t x, cusparseDnVecDescr_t y,
                                   cudaDataType type, cusparseSpSVAlg_t alg) {
  cusparseSpSVDescr_t d = nullptr;
  const cusparseStatus_t s = detail::solve_descr<cusparseSpSVDescr_t, cusparseSpSV_createDescr>(A, &d);
  return s != CUSPARSE_STATUS_SUCCESS ? s : cusparseSpSV_solve(handle, trans, alpha, A, x, y, type, alg, d);
}

// rocsparse_spsm likewise: cusparseSpSM_bufferSize, _analysis and _solve.
inline cusparseStatus_t spsm_buffer_size(cusparseHandle_t handle, cusparseOperation_t trans_A,
                                         cusparseOperation_t trans_B, const void* alpha, cusparseConstSpMatDescr_t A,
                                         cusparseConstDnMatDescr_t B, cusparseDnMatDescr_t C, cudaDataType type,
                                         cusparseSpSMAlg_t alg, std::size_t* size) {
  cusparseSpSMDescr_t d = nullptr;
  const cusparseStatus_t s = detail::solve_descr<cusparseSpSMDescr_t, cusparseSpSM_createDescr>(A, &d);
  return s != CUSPARSE_STATUS_SUCCESS ? s
                                      : cusparseSpSM_bufferSize(handle, trans_A, trans_B, alpha, A, B, C, type, alg, d,
                                                                size);
}
inline cusparseStatus_t spsm_analysis(cusparseHandle_t handle, cusparseOperation_t trans_A, cusparseOperation_t trans_B,
                                      const void* alpha, cusparseConstSpMatDescr_t A, cusparseConstDnMatDescr_t B,
                                      cusparseDnMatDescr_t C, cudaDataType type, cusparseSpSMAlg_t alg, void* buffer) {
  cusparseSpSMDescr_t d = nullptr;
  const cusparseStatus_t s = detail::solve_descr<cusparseSpSMDescr_t, cusparseSpSM_createDescr>(A, &d);
  return s != CUSPARSE_STATUS_SUCCESS
             ? s
             : cusparseSpSM_analysis(handle, trans_A, trans_B, alpha, A, B, C, type, alg, d, buffer);
}
inline cusparseStatus_t spsm_solve(cusparseHandle_t handle, cusparseOperation_t trans_A, cusparseOperation_t trans_B,
                                   const void* alpha, cusparseConstSpMatDescr_t A, cusparseConstDnMatDescr_t B,
                                   cusparseDnMatDescr_t C, cudaDataType type, cusparseSpSMAlg_t alg) {
  cusparseSpSMDescr_t d = nullptr;
  const cusparseStatus_t s = detail::solve_descr<cusparseSpSMDescr_t, cusparseSpSM_createDescr>(A, &d);
  return s != CUSPARSE_STATUS_SUCCESS ? s : cusparseSpSM_solve(handle, trans_A, trans_B, alpha, A, B, C, type, alg, d);
}

// rocsparse_?gemmi (removed from cuSPARSE in CUDA 12.0): C = alpha A op(B) + beta C for the dense
// column-major m x k matrix A (lda) and the CSR matrix B, op(B) k x n; rocSPARSE takes only
// trans_A = none and trans_B = transpose (B stored n x k), and so does this. Through cusparseSpMM
// on the transposes: C^T = B A^T, where A^T and C^T are A and C read as row-major matrices.
template <class T>
inline cusparseStatus_t gemmi(cusparseHandle_t handle, cusparseOperation_t trans_A, cusparseOperation_t trans_B, int m,
                              int n, int k, int nnz, const T* alpha, const T* A, int lda, const cusparseMatDescr_t descr,
                              const T* csr_val, const int* csr_row_ptr, const int* csr_col_ind, const T* beta, T* C,
                              int ldc) {
  if (trans_A != CUSPARSE_OPERATION_NON_TRANSPOSE || trans_B != CUSPARSE_OPERATION_TRANSPOSE)
    return CUSPARSE_STATUS_NOT_SUPPORTED;  // rocSPARSE: rocsparse_status_not_implemented
  if (cusparseGetMatType(descr) != CUSPARSE_MATRIX_TYPE_GENERAL) return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  const cudaDataType type = detail::data_type<T>::value;
  detail::Generic g;
  cusparseStatus_t s = cusparseCreateCsr(&g.a, n, k, nnz, const_cast<int*>(csr_row_ptr), const_cast<int*>(csr_col_ind),
                                         const_cast<T*>(csr_val), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         cusparseGetMatIndexBase(descr), type);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseCreateDnMat(&g.b, k, m, lda, const_cast<T*>(A), type, CUSPARSE_ORDER_ROW);
  if (s == CUSPARSE_STATUS_SUCCESS) s = cusparseCreateDnMat(&g.c, n, m, ldc, C, type, CUSPARSE_ORDER_ROW);
  const cusparseOperation_t none = CUSPARSE_OPERATION_NON_TRANSPOSE;
  std::size_t size = 0;
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMM_bufferSize(handle, none, none, alpha, g.a, g.b, beta, g.c, type, CUSPARSE_SPMM_ALG_DEFAULT, &size);
  if (s == CUSPARSE_STATUS_SUCCESS) s = g.allocate(size);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSpMM(handle, none, none, alpha, g.a, g.b, beta, g.c, type, CUSPARSE_SPMM_ALG_DEFAULT, g.buffer);
  cudaStream_t stream = nullptr;
  if (s == CUSPARSE_STATUS_SUCCESS && cusparseGetStream(handle, &stream) == CUSPARSE_STATUS_SUCCESS &&
      cudaStreamSynchronize(stream) != cudaSuccess)
    s = CUSPARSE_STATUS_EXECUTION_FAILED;
  return s;
}

// rocsparse_?csr2dense: the m x n CSR matrix into the column-major dense matrix A (leading
// dimension ld), zeros where no entry is stored; the index base is the descriptor's.
template <class T>
inline cusparseStatus_t csr2dense(cusparseHandle_t handle, int m, int n, const cusparseMatDescr_t descr,
                                  const T* csr_val, const int* csr_row_ptr, const int* csr_col_ind, T* A, int ld) {
  const cusparseIndexBase_t base = cusparseGetMatIndexBase(descr);
  cudaStream_t stream = nullptr;
  cusparseStatus_t s = cusparseGetStream(handle, &stream);
  if (s != CUSPARSE_STATUS_SUCCESS) return s;
  int end = 0;  // csr_row_ptr[m]: the number of entries, plus the base
  if (cudaMemcpyAsync(&end, csr_row_ptr + m, sizeof(int), cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
      cudaStreamSynchronize(stream) != cudaSuccess)
    return CUSPARSE_STATUS_EXECUTION_FAILED;
  const std::int64_t nnz = end - (base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0);
  cusparseSpMatDescr_t sparse = nullptr;
  cusparseDnMatDescr_t dense = nullptr;
  s = cusparseCreateCsr(&sparse, m, n, nnz, const_cast<int*>(csr_row_ptr), const_cast<int*>(csr_col_ind),
                        const_cast<T*>(csr_val), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, base,
                        detail::data_type<T>::value);
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseCreateDnMat(&dense, m, n, ld, A, detail::data_type<T>::value, CUSPARSE_ORDER_COL);
  std::size_t size = 0;
  void* buffer = nullptr;
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSparseToDense_bufferSize(handle, sparse, dense, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &size);
  if (s == CUSPARSE_STATUS_SUCCESS && size > 0 && cudaMalloc(&buffer, size) != cudaSuccess)
    s = CUSPARSE_STATUS_ALLOC_FAILED;
  if (s == CUSPARSE_STATUS_SUCCESS)
    s = cusparseSparseToDense(handle, sparse, dense, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer);
  if (buffer && cudaStreamSynchronize(stream) != cudaSuccess && s == CUSPARSE_STATUS_SUCCESS)
    s = CUSPARSE_STATUS_EXECUTION_FAILED;
  cudaFree(buffer);
  if (dense) cusparseDestroyDnMat(dense);
  if (sparse) cusparseDestroySpMat(sparse);
  return s;
}

}  // namespace cusparse_compat
}  // namespace ferry
)";

// ferry/compat_cusolver.h: rocSOLVER's LU calls, whose contract cuSOLVER has with another shape
// (its own handle and a workspace): one cusolverDnHandle_t per call on the cuBLAS handle's stream.
const std::string_view kCusolverHeaderText =
    R"(// ferry/compat_cusolver.h: written by Ferry's HIP -> CUDA migration (ferry migrate --to cuda).
// rocSOLVER's LU calls through cuSOLVER: rocSOLVER takes the rocBLAS handle (cuBLAS's here) and
// no workspace, cuSOLVER its own handle and a workspace; each call below opens a cuSOLVER handle
// on the cuBLAS handle's stream and returns a cuBLAS status, as the rocSOLVER call returns rocBLAS's.
// Regenerated on every migration: edit the migrated code, not this file.
#pragma once

#include <vector>

#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

namespace ferry {
namespace cusolver_compat {
namespace detail {
struct Dense {
  cusolverDnHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  void* work = nullptr;
  Dense() = default;
  Dense(const Dense&) = delete;
  Dense& operator=(const Dense&) = delete;
  ~Dense() {
    if (work) {
      cudaStreamSynchronize(stream);
      cudaFree(work);
    }
    if (handle) cusolverDnDestroy(handle);
  }
  cublasStatus_t open(cublasHandle_t blas) {
    if (cublasGetStream(blas, &stream) != CUBLAS_STATUS_SUCCESS) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS) return CUBLAS_STATUS_ALLOC_FAILED;
    return cusolverDnSetStream(handle, stream) == CUSOLVER_STATUS_SUCCESS ? CUBLAS_STATUS_SUCCESS
                                                                           : CUBLAS_STATUS_INTERNAL_ERROR;
  }
};
inline cublasStatus_t status(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return CUBLAS_STATUS_SUCCESS;
    case CUSOLVER_STATUS_NOT_INITIALIZED: return CUBLAS_STATUS_NOT_INITIALIZED;
    case CUSOLVER_STATUS_ALLOC_FAILED: return CUBLAS_STATUS_ALLOC_FAILED;
    case CUSOLVER_STATUS_INVALID_VALUE: return CUBLAS_STATUS_INVALID_VALUE;
    case CUSOLVER_STATUS_ARCH_MISMATCH: return CUBLAS_STATUS_ARCH_MISMATCH;
    case CUSOLVER_STATUS_EXECUTION_FAILED: return CUBLAS_STATUS_EXECUTION_FAILED;
    default: return CUBLAS_STATUS_INTERNAL_ERROR;
  }
}
// cuSOLVER's typed LU functions, by element type.
inline cusolverStatus_t getrf_size(cusolverDnHandle_t h, int m, int n, float* A, int lda, int* lwork) {
  return cusolverDnSgetrf_bufferSize(h, m, n, A, lda, lwork);
}
inline cusolverStatus_t getrf_size(cusolverDnHandle_t h, int m, int n, double* A, int lda, int* lwork) {
  return cusolverDnDgetrf_bufferSize(h, m, n, A, lda, lwork);
}
inline cusolverStatus_t getrf_size(cusolverDnHandle_t h, int m, int n, cuComplex* A, int lda, int* lwork) {
  return cusolverDnCgetrf_bufferSize(h, m, n, A, lda, lwork);
}
inline cusolverStatus_t getrf_size(cusolverDnHandle_t h, int m, int n, cuDoubleComplex* A, int lda, int* lwork) {
  return cusolverDnZgetrf_bufferSize(h, m, n, A, lda, lwork);
}
inline cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, float* A, int lda, float* w, int* p, int* info) {
  return cusolverDnSgetrf(h, m, n, A, lda, w, p, info);
}
inline cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, double* A, int lda, double* w, int* p, int* info) {
  return cusolverDnDgetrf(h, m, n, A, lda, w, p, info);
}
inline cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, cuComplex* A, int lda, cuComplex* w, int* p,
                              int* info) {
  return cusolverDnCgetrf(h, m, n, A, lda, w, p, info);
}
inline cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, cuDoubleComplex* A, int lda, cuDoubleComplex* w,
                              int* p, int* info) {
  return cusolverDnZgetrf(h, m, n, A, lda, w, p, info);
}
inline cusolverStatus_t getrs(cusolverDnHandle_t h, int n, const float* A, int lda, const int* p, float* B, int ldb,
                              int* info) {
  return cusolverDnSgetrs(h, CUBLAS_OP_N, n, n, A, lda, p, B, ldb, info);
}
inline cusolverStatus_t getrs(cusolverDnHandle_t h, int n, const double* A, int lda, const int* p, double* B, int ldb,
                              int* info) {
  return cusolverDnDgetrs(h, CUBLAS_OP_N, n, n, A, lda, p, B, ldb, info);
}
inline cusolverStatus_t getrs(cusolverDnHandle_t h, int n, const cuComplex* A, int lda, const int* p, cuComplex* B,
                              int ldb, int* info) {
  return cusolverDnCgetrs(h, CUBLAS_OP_N, n, n, A, lda, p, B, ldb, info);
}
inline cusolverStatus_t getrs(cusolverDnHandle_t h, int n, const cuDoubleComplex* A, int lda, const int* p,
                              cuDoubleComplex* B, int ldb, int* info) {
  return cusolverDnZgetrs(h, CUBLAS_OP_N, n, n, A, lda, p, B, ldb, info);
}
template <class T> T one();
template <> inline float one<float>() { return 1.0f; }
template <> inline double one<double>() { return 1.0; }
template <> inline cuComplex one<cuComplex>() { return make_cuComplex(1.0f, 0.0f); }
template <> inline cuDoubleComplex one<cuDoubleComplex>() { return make_cuDoubleComplex(1.0, 0.0); }
inline bool is_zero(float x) { return x == 0.0f; }
inline bool is_zero(double x) { return x == 0.0; }
inline bool is_zero(cuComplex x) { return x.x == 0.0f && x.y == 0.0f; }
inline bool is_zero(cuDoubleComplex x) { return x.x == 0.0 && x.y == 0.0; }
}  // namespace detail

// rocsolver_?getrf and rocsolver_?getf2 (the blocked and unblocked forms of one factorisation,
// P A = L U with partial pivoting; cuSOLVER has the blocked one): LU factors in A, 1-based pivots
// in ipiv, info > 0 at the first zero pivot.
template <class T>
inline cublasStatus_t getrf(cublasHandle_t blas, int m, int n, T* A, int lda, int* ipiv, int* info) {
  detail::Dense d;
  cublasStatus_t s = d.open(blas);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  int lwork = 0;
  s = detail::status(detail::getrf_size(d.handle, m, n, A, lda, &lwork));
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if (cudaMalloc(&d.work, sizeof(T) * (lwork > 0 ? lwork : 1)) != cudaSuccess) return CUBLAS_STATUS_ALLOC_FAILED;
  return detail::status(detail::getrf(d.handle, m, n, A, lda, static_cast<T*>(d.work), ipiv, info));
}
template <class T>
inline cublasStatus_t getf2(cublasHandle_t blas, int m, int n, T* A, int lda, int* ipiv, int* info) {
  return getrf(blas, m, n, A, lda, ipiv, info);
}

// rocsolver_?getri: the inverse of A from its LU factors (getrf's), in place; info = j (1-based)
// and A unchanged when U(j, j) is the first zero on U's diagonal. cuSOLVER has no getri: the
// inverse solves A X = I with getrs.
template <class T>
inline cublasStatus_t getri(cublasHandle_t blas, int n, T* A, int lda, int* ipiv, int* info) {
  detail::Dense d;
  cublasStatus_t s = d.open(blas);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if (n <= 0) return cudaMemsetAsync(info, 0, sizeof(int), d.stream) == cudaSuccess ? CUBLAS_STATUS_SUCCESS
                                                                                    : CUBLAS_STATUS_EXECUTION_FAILED;
  std::vector<T> diag(static_cast<std::size_t>(n));
  if (cudaMemcpy2DAsync(diag.data(), sizeof(T), A, sizeof(T) * (static_cast<std::size_t>(lda) + 1), sizeof(T), n,
                        cudaMemcpyDeviceToHost, d.stream) != cudaSuccess ||
      cudaStreamSynchronize(d.stream) != cudaSuccess)
    return CUBLAS_STATUS_EXECUTION_FAILED;
  int singular = 0;
  for (int j = 0; j < n && singular == 0; ++j)
    if (detail::is_zero(diag[static_cast<std::size_t>(j)])) singular = j + 1;
  if (singular != 0)
    return cudaMemcpy(info, &singular, sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess
               ? CUBLAS_STATUS_SUCCESS
               : CUBLAS_STATUS_EXECUTION_FAILED;
  std::vector<T> identity(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), T{});
  for (int j = 0; j < n; ++j) identity[static_cast<std::size_t>(j) * static_cast<std::size_t>(n) + j] = detail::one<T>();
  const std::size_t bytes = sizeof(T) * identity.size();
  if (cudaMalloc(&d.work, bytes) != cudaSuccess) return CUBLAS_STATUS_ALLOC_FAILED;
  T* X = static_cast<T*>(d.work);
  if (cudaMemcpyAsync(X, identity.data(), bytes, cudaMemcpyHostToDevice, d.stream) != cudaSuccess)
    return CUBLAS_STATUS_EXECUTION_FAILED;
  s = detail::status(detail::getrs(d.handle, n, A, lda, ipiv, X, n, info));
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if (cudaMemcpy2DAsync(A, sizeof(T) * static_cast<std::size_t>(lda), X, sizeof(T) * static_cast<std::size_t>(n),
                        sizeof(T) * static_cast<std::size_t>(n), n, cudaMemcpyDeviceToDevice, d.stream) != cudaSuccess ||
      cudaStreamSynchronize(d.stream) != cudaSuccess)  // the host identity goes out of scope
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace cusolver_compat
}  // namespace ferry
)";

}  // namespace ferry::targets::cuda
