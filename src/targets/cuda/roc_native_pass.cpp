// The ROCm libraries' native APIs on the way to CUDA (docs/targets.md, "cuda"). Most of rocSPARSE
// maps name for name (the inverted rules/cuda2hip/alt-rocsparse/ table and
// rules/hip2cuda/rocsparse.tsv); this pass does what a rename cannot:
//  - `#if ROCSPARSE_VERSION_MAJOR < 3` and the like: nvcc sees no rocSPARSE header, so the macro
//    would read 0 and pick the code written for rocSPARSE 2. The rules map rocSPARSE 3's API, so
//    the test reads the version whose API they map, `3 /* ferry: ROCSPARSE_VERSION_MAJOR */`
//    (FRY1320); the rocSPARSE names of a branch that is then not compiled stay as written.
//  - `case rocsparse_status_thrown_exception:` and the other statuses the CUDA library never
//    returns (no row maps them): the label goes, with the `return` it guards (FRY1321).
//  - rocSPARSE's staged generic calls, `rocsparse_spmv(..., stage, &size, buffer)`: one function
//    per stage in cuSPARSE. A literal stage picks it: `_stage_buffer_size` ->
//    cusparseSpMV_bufferSize(..., &size), `_stage_preprocess` -> cusparseSpMV_preprocess(...,
//    buffer), `_stage_compute` -> cusparseSpMV(..., buffer) (FRY1248); any other stage, FRY1249.
//  - `rocsparse_mat_info`: one rocSPARSE type for every analysis, one cuSPARSE type per
//    algorithm. A local variable takes the type of the calls it is passed to (bsrsv2Info_t and
//    cusparseCreateBsrsv2Info for rocsparse_dbsrsv_*); one that only the dropped argument of
//    rocsparse_?bsrmv or ?csrmv reads is removed with its create and destroy statements (FRY1250); one that
//    serves several algorithms or is used elsewhere, FRY1251.
//  - rocSOLVER, rocFFT and rocRAND's C++ wrapper have no same-shape CUDA twin (cuSOLVER needs a
//    workspace query and its own handle, cuFFT plans differ, cuRAND has no C++ classes): FRY1322
//    at the include.
// Not on the way back of a round trip (the CUDA original never had these names).
#include <array>
#include <string>
#include <vector>

#include "targets/cuda/compat_header.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::ArgRange;
using migrate::npos;

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> set) {
  for (std::string_view x : set)
    if (s == x) return true;
  return false;
}

// Byte range of code tokens first..last widened to whole lines when nothing else is on them.
std::pair<std::uint32_t, std::uint32_t> line_span(const migrate::FileMigration& f, std::size_t first,
                                                  std::size_t last) {
  const std::string_view src = f.source();
  std::uint32_t b = f.code(first).begin, e = f.code(last).end;
  std::uint32_t lb = b, le = e;
  while (lb > 0 && (src[lb - 1] == ' ' || src[lb - 1] == '\t')) --lb;
  while (le < src.size() && (src[le] == ' ' || src[le] == '\t' || src[le] == '\r')) ++le;
  if ((lb == 0 || src[lb - 1] == '\n') && (le == src.size() || src[le] == '\n'))
    return {lb, le < src.size() ? le + 1 : le};
  return {b, e};
}

// ferry/compat_cusparse.h: rocSPARSE calls whose cuSPARSE twin CUDA 12 removed, written with
// cuSPARSE's generic API, and the size_t buffer sizes of calls whose twin writes an int; each
// gives the same result as the rocSPARSE call.
constexpr std::string_view kCusparseHeaderName = "ferry/compat_cusparse.h";
constexpr std::string_view kCusparseHeaderText =
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
constexpr std::string_view kCusolverHeaderName = "ferry/compat_cusolver.h";
constexpr std::string_view kCusolverHeaderText =
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

// ---- version tests ---------------------------------------------------------------------------

// `#if NAME OP N` with NAME's value: whether the test holds.
bool test_holds(const migrate::FileMigration& f, std::size_t name, std::string_view value) {
  const long v = std::stol(std::string(value));
  long n = 0;
  try {
    n = std::stol(std::string(f.text(name + 2)));
  } catch (...) {
    return true;
  }
  const std::string_view op = f.text(name + 1);
  if (op == "<") return v < n;
  if (op == "<=") return v <= n;
  if (op == ">") return v > n;
  if (op == ">=") return v >= n;
  if (op == "==") return v == n;
  if (op == "!=") return v != n;
  return true;  // not a comparison Ferry reads: treat the branch as taken
}

// The branch of the #if at `hash` is not compiled for the rocSPARSE version the rules map (the
// rocSPARSE 2 spellings rocm-examples #defines there): its rocSPARSE names are left as written,
// without a diagnostic for each.
void keep_dead_branch(migrate::FileMigration& f, std::size_t hash) {
  int depth = 0;
  for (std::size_t k = f.directive_last(hash) + 1; k < f.code_size(); ++k) {
    if (f.is(k, "#") && f.in_directive(k)) {
      const std::string_view d = f.text(k + 1);
      if (d == "if" || d == "ifdef" || d == "ifndef") ++depth;
      else if (d == "endif" && depth-- == 0) return;
      else if ((d == "else" || d == "elif") && depth == 0) return;
      if (d != "define") k = f.directive_last(k);  // a #define's body is the branch's code too
      continue;
    }
    if (f.is_identifier(k) && f.text(k).starts_with("rocsparse_") && !f.touched(k))
      f.replace(k, k, std::string(f.text(k)));
  }
}

void version_tests(migrate::FileMigration& file) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kValues = {
      {{"ROCSPARSE_VERSION_MAJOR", "3"}, {"ROCSPARSE_VERSION_MINOR", "0"}, {"ROCSPARSE_VERSION_PATCH", "0"}}};
  for (const auto& [name, value] : kValues) {
    for (const std::uint32_t k : file.occurrences(name)) {
      if (!file.in_directive(k) || file.excluded(k) || file.touched(k)) continue;
      std::size_t hash = k;
      while (hash > 0 && !file.is(hash, "#")) --hash;
      const std::string_view d = file.text(hash + 1);
      if (!(d == "if" || d == "elif")) continue;
      if (file.is(k - 1, "defined") || (file.is(k - 1, "(") && file.is(k - 2, "defined"))) continue;
      if (!file.replace(k, k, std::string(value) + " /* ferry: " + std::string(name) + " */")) continue;
      if (k == hash + 2 && file.directive_last(hash) == k + 2 && file.is_number(k + 2) && !test_holds(file, k, value))
        keep_dead_branch(file, hash);
      file.diag(Diag::RocVersionTestCuda, k,
                "'" + std::string(name) + "' reads " + std::string(value) +
                    ": the CUDA build has no rocSPARSE header, and Ferry maps rocSPARSE 3's API to cuSPARSE",
                "");
    }
  }
}

// ---- status cases ------------------------------------------------------------------------------

void status_cases(migrate::FileMigration& file) {
  static constexpr std::string_view kPrefixes[] = {"rocsparse_status_", "rocblas_status_"};
  const rules::RuleSet& rules = file.target().rules();
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    if (!file.is(ci, "case")) continue;
    const std::size_t lab = ci + 1;
    if (!file.is_identifier(lab) || !file.is(lab + 1, ":") || file.excluded(ci) || file.touched(lab)) continue;
    const std::string_view name = file.text(lab);
    bool lib = false;
    for (std::string_view p : kPrefixes) lib = lib || name.starts_with(p);
    if (!lib) continue;
    if (const rules::Rule* r = rules.find_identifier(name);
        r && r->has_replacement() && r->status != rules::Status::Unsupported)
      continue;
    std::size_t last = lab + 1;
    if (file.is(last + 1, "return")) {
      std::size_t k = last + 2;
      int depth = 0;
      for (; k < file.code_size(); ++k) {
        if (file.is(k, "(") || file.is(k, "{") || file.is(k, "[")) ++depth;
        else if (file.is(k, ")") || file.is(k, "}") || file.is(k, "]")) --depth;
        else if (depth == 0 && file.is(k, ";")) break;
        if (depth < 0 || file.in_directive(k)) break;
      }
      if (k < file.code_size() && file.is(k, ";")) last = k;
    }
    const auto [b, e] = line_span(file, ci, last);
    if (!file.replace_bytes(b, e, "")) continue;
    file.diag(Diag::RocStatusCaseRemovedCuda, lab,
              "'" + std::string(name) +
                  "' has no CUDA twin and the CUDA library never returns it: the case is removed" +
                  (last > lab + 1 ? " with its return" : ""),
              "");
  }
}

// ---- staged generic calls ---------------------------------------------------------------------

struct Staged {
  std::string_view name;
  std::size_t args;            // argument count
  std::size_t stage;           // index of the stage argument; buffer size and buffer follow it
  std::string_view buffer_fn;  // the function of each stage
  std::string_view preprocess_fn;
  std::string_view compute_fn;
  bool compute_buffer;  // the compute function takes the buffer (cuSPARSE 12's SpSV/SpSM solve does not)
};
constexpr Staged kStaged[] = {
    {"rocsparse_spmv", 12, 9, "cusparseSpMV_bufferSize", "cusparseSpMV_preprocess", "cusparseSpMV", true},
    {"rocsparse_spmv_ex", 12, 9, "cusparseSpMV_bufferSize", "cusparseSpMV_preprocess", "cusparseSpMV", true},
    {"rocsparse_spmm", 13, 10, "cusparseSpMM_bufferSize", "cusparseSpMM_preprocess", "cusparseSpMM", true},
    // cuSPARSE's SpSV/SpSM take a solve descriptor rocSPARSE has no counterpart for: the compat
    // header keeps one per matrix (ferry/compat_cusparse.h).
    {"rocsparse_spsv", 11, 8, "ferry::cusparse_compat::spsv_buffer_size", "ferry::cusparse_compat::spsv_analysis",
     "ferry::cusparse_compat::spsv_solve", false},
    {"rocsparse_spsm", 12, 9, "ferry::cusparse_compat::spsm_buffer_size", "ferry::cusparse_compat::spsm_analysis",
     "ferry::cusparse_compat::spsm_solve", false},
};

void drop_args(migrate::FileMigration& file, const std::vector<ArgRange>& args,
               std::initializer_list<std::size_t> drop) {
  for (std::size_t k : drop) file.replace_bytes(file.code(args[k - 1].last).end, file.code(args[k].last).end, "");
}

void staged_calls(migrate::FileMigration& file) {
  for (const Staged& s : kStaged) {
    for (const std::uint32_t ci : file.occurrences(s.name)) {
      if (file.in_directive(ci) || file.excluded(ci) || file.touched(ci) || !file.is(ci + 1, "(") ||
          file.is_member_or_qualified(ci))
        continue;
      const std::vector<ArgRange> args = file.call_args(ci + 1);
      std::string_view stage;
      if (args.size() == s.args) {
        const ArgRange a = args[s.stage];
        if (a.first == a.last) stage = file.text(a.first);
        else if (a.last == a.first + 2 && file.is(a.first + 1, "::")) stage = file.text(a.last);  // enum::name
      }
      const std::string base(s.name.substr(0, s.name.ends_with("_ex") ? s.name.size() - 3 : s.name.size()));
      std::string to;
      if (stage == base + "_stage_buffer_size") to = std::string(s.buffer_fn);
      else if (stage == base + "_stage_preprocess") to = std::string(s.preprocess_fn);
      else if (stage == base + "_stage_compute") to = std::string(s.compute_fn);
      if (to.empty()) {
        file.replace(ci, ci, std::string(s.name));  // the rules leave it as written
        file.diag(Diag::RocsparseStageUnknownCuda, ci,
                  "'" + std::string(s.name) + "' takes its stage as an argument" +
                      (stage.empty() ? std::string() : " ('" + std::string(stage) + "')") +
                      "; cuSPARSE has one function per stage and Ferry cannot tell which one this call is",
                  "call " + std::string(s.buffer_fn) + ", " + std::string(s.preprocess_fn) + " and " +
                      std::string(s.compute_fn) + " (without the stage argument) where the stage is known");
        continue;
      }
      file.replace(ci, ci, to);
      std::string dropped;
      if (to == s.buffer_fn) {
        drop_args(file, args, {s.stage, s.stage + 2});  // keeps &buffer_size
        dropped = "the buffer";
      } else if (to == s.preprocess_fn || s.compute_buffer) {
        drop_args(file, args, {s.stage, s.stage + 1});  // keeps the buffer
        dropped = "the buffer size";
      } else {
        drop_args(file, args, {s.stage, s.stage + 1, s.stage + 2});
        dropped = "the buffer size and the buffer (given to the analysis)";
      }
      file.count_converted("cusparse");
      file.diag(Diag::RocsparseStageCallCuda, ci,
                "'" + std::string(s.name) + "' at stage '" + std::string(stage) + "' is '" + to +
                    "' (the stage argument and " + dropped + " go)",
                "");
    }
  }
}

// rocSPARSE 3's rocsparse_?bsrmv (and 2's _ex) take a rocsparse_mat_info before x: an optional
// analysis that only speeds the product up; cuSPARSE's bsrmv has none. The pass drops it (the rule
// row does the same, but not where the project #defines the name, as rocm-examples does for
// rocSPARSE 2).
void bsrmv_calls(migrate::FileMigration& file) {
  for (const char p : std::string_view("sdcz")) {
    for (const std::string_view suffix : {"", "_ex"}) {
      const std::string name = std::string("rocsparse_") + p + "bsrmv" + std::string(suffix);
      for (const std::uint32_t ci : file.occurrences(name)) {
        if (file.in_directive(ci) || file.excluded(ci) || file.touched(ci) || !file.is(ci + 1, "(") ||
            file.is_member_or_qualified(ci))
          continue;
        const std::vector<ArgRange> args = file.call_args(ci + 1);
        if (args.size() != 16) continue;
        const std::string to = std::string("cusparse") + static_cast<char>(p - 'a' + 'A') + "bsrmv";
        file.replace(ci, ci, to);
        drop_args(file, args, {12});
        file.count_converted("cusparse");
        file.diag(Diag::RocsparseMatInfoTypedCuda, Severity::Note, ci,
                  "'" + name + "' is '" + to +
                      "' without its rocsparse_mat_info argument (an optional analysis cuSPARSE does not have)",
                  "");
      }
    }
  }
}

// ---- rocsparse_mat_info ----------------------------------------------------------------------

struct InfoFamily {
  std::string_view algo;  // rocSPARSE's
  std::string_view type;  // cuSPARSE's
  std::string_view stem;  // cusparseCreate<stem> / cusparseDestroy<stem>
};
constexpr InfoFamily kInfoFamilies[] = {
    {"bsrsv", "bsrsv2Info_t", "Bsrsv2Info"},    {"bsrsm", "bsrsm2Info_t", "Bsrsm2Info"},
    {"csric0", "csric02Info_t", "Csric02Info"}, {"csrilu0", "csrilu02Info_t", "Csrilu02Info"},
    {"bsric0", "bsric02Info_t", "Bsric02Info"}, {"bsrilu0", "bsrilu02Info_t", "Bsrilu02Info"},
};

// The algorithm of a rocSPARSE call head (rocsparse_dbsrsv_analysis -> bsrsv), or null.
const InfoFamily* info_family(std::string_view head) {
  if (!head.starts_with("rocsparse_")) return nullptr;
  head.remove_prefix(10);
  for (std::string_view suffix : {"_buffer_size", "_analysis", "_solve", "_zero_pivot"})
    if (head.ends_with(suffix)) {
      head.remove_suffix(suffix.size());
      break;
    }
  for (int pass = 0; pass < 2; ++pass) {
    for (const InfoFamily& f : kInfoFamilies)
      if (head == f.algo) return &f;
    if (head.empty() || std::string_view("sdcz").find(head[0]) == std::string_view::npos) return nullptr;
    head.remove_prefix(1);
  }
  return nullptr;
}

// The identifier before the `(` that encloses code token `ci` directly, or npos.
std::size_t enclosing_head(const migrate::FileMigration& f, std::size_t ci) {
  int depth = 0;
  for (std::size_t k = ci; k-- > 0;) {
    if (f.is(k, ")") || f.is(k, "]") || f.is(k, "}")) ++depth;
    else if (f.is(k, "{") || f.is(k, ";")) return npos;
    else if (f.is(k, "(") || f.is(k, "[")) {
      if (depth == 0) return f.is(k, "(") && k > 0 && f.is_identifier(k - 1) ? k - 1 : npos;
      --depth;
    }
  }
  return npos;
}

// The statement holding code token `ci`: from after the previous `;`, `{` or `}` to its `;`.
std::pair<std::size_t, std::size_t> statement_of(const migrate::FileMigration& f, std::size_t ci) {
  std::size_t first = ci;
  while (first > 0 && !f.is(first - 1, ";") && !f.is(first - 1, "{") && !f.is(first - 1, "}") &&
         !f.in_directive(first - 1))
    --first;
  int depth = 0;
  std::size_t last = ci;
  for (; last < f.code_size(); ++last) {
    if (f.is(last, "(") || f.is(last, "[") || f.is(last, "{")) ++depth;
    else if (f.is(last, ")") || f.is(last, "]") || f.is(last, "}")) --depth;
    else if (f.is(last, ";") && depth <= 0) break;
  }
  return {first, last};
}

void mat_infos(migrate::FileMigration& file) {
  for (const std::uint32_t ti : file.occurrences("rocsparse_mat_info")) {
    if (file.in_directive(ti) || file.excluded(ti) || file.touched(ti) || file.is_member_or_qualified(ti)) continue;
    const std::size_t ni = ti + 1;
    if (!file.is_identifier(ni) || !(file.is(ni + 1, ";") || file.is(ni + 1, "{") || file.is(ni + 1, "=")))
      continue;  // a parameter, a member, a cast: the rules' row reports it
    const std::string name(file.text(ni));
    const InfoFamily* family = nullptr;
    bool several = false, unknown = false;
    std::vector<std::size_t> creates, destroys;
    std::string unknown_use;
    // Its uses: the name in the rest of the block that declares it.
    std::size_t close = file.code_size();
    for (std::size_t k = ti, depth = 0; k-- > 0;) {
      if (file.is(k, "}")) ++depth;
      else if (file.is(k, "{") && depth-- == 0) {
        if (const std::size_t p = file.partner(k); p != npos) close = p;
        break;
      }
    }
    for (const std::uint32_t u : file.occurrences(name)) {
      if (u <= ni || u >= close || file.is_member_or_qualified(u)) continue;
      const std::size_t head = enclosing_head(file, u);
      const std::string_view h = head == npos ? std::string_view() : file.text(head);
      if (h == "rocsparse_create_mat_info" && file.is(u - 1, "&")) creates.push_back(head);
      else if (h == "rocsparse_destroy_mat_info") destroys.push_back(head);
      else if (is_one_of(h, {"rocsparse_sbsrmv", "rocsparse_dbsrmv", "rocsparse_cbsrmv", "rocsparse_zbsrmv",
                             "rocsparse_sbsrmv_ex", "rocsparse_dbsrmv_ex", "rocsparse_cbsrmv_ex", "rocsparse_zbsrmv_ex",
                             "rocsparse_scsrmv", "rocsparse_dcsrmv", "rocsparse_ccsrmv", "rocsparse_zcsrmv"})) {
        // rules/hip2cuda/rocsparse.tsv drops this argument (an optional analysis cuSPARSE has not)
      } else if (const InfoFamily* f = info_family(h)) {
        several = several || (family && family != f);
        family = f;
      } else {
        unknown = true;
        if (unknown_use.empty()) unknown_use = head == npos ? "an expression" : "'" + std::string(h) + "'";
      }
    }
    if (several || unknown) {
      file.replace(ti, ti, "rocsparse_mat_info");  // left as written
      file.diag(
          Diag::RocsparseMatInfoUnresolvedCuda, ti,
          "'" + name + "' is a rocsparse_mat_info " +
              (several ? std::string("that several cuSPARSE algorithms would share") : "passed to " + unknown_use) +
              "; cuSPARSE has one info type per algorithm (bsrsv2Info_t, csric02Info_t, ...)",
          "declare one cuSPARSE info per algorithm (cusparseCreateBsrsv2Info, ...) and pass each to its calls");
      continue;
    }
    if (!family) {
      // Only the dropped argument of rocsparse_?bsrmv or ?csrmv read it: the variable and its lifetime go.
      const auto [df, dl] = statement_of(file, ti);
      bool ok = true;
      std::vector<std::pair<std::size_t, std::size_t>> stmts{{df, dl}};
      for (std::size_t h : creates) stmts.push_back(statement_of(file, h));
      for (std::size_t h : destroys) stmts.push_back(statement_of(file, h));
      for (const auto& [f, l] : stmts) ok = ok && l < file.code_size() && !file.touched(f) && !file.touched(l);
      if (!ok) continue;
      for (const auto& [f, l] : stmts) {
        const auto [b, e] = line_span(file, f, l);
        file.replace_bytes(b, e, "");
      }
      file.diag(Diag::RocsparseMatInfoTypedCuda, ti,
                "'" + name +
                    "' (rocsparse_mat_info) is read only by rocsparse_?bsrmv or rocsparse_?csrmv, whose cuSPARSE "
                    "twins take no info: "
                    "its declaration, creation and destruction are removed",
                "");
      continue;
    }
    file.replace(ti, ti, std::string(family->type));
    for (std::size_t h : creates) file.replace(h, h, "cusparseCreate" + std::string(family->stem));
    for (std::size_t h : destroys) file.replace(h, h, "cusparseDestroy" + std::string(family->stem));
    file.count_converted("cusparse");
    file.diag(Diag::RocsparseMatInfoTypedCuda, ti,
              "'" + name + "' (rocsparse_mat_info) serves rocSPARSE's " + std::string(family->algo) + ": it is a " +
                  std::string(family->type) + ", created and destroyed by cusparseCreate" + std::string(family->stem) +
                  " / cusparseDestroy" + std::string(family->stem),
              "");
  }
}

// ---- libraries with no same-shape twin ---------------------------------------------------------

// The file calls a rocsolver_* function no rule maps (rules/hip2cuda/rocsolver.tsv maps the LU ones).
bool unmapped_rocsolver_call(const migrate::FileMigration& file) {
  const rules::RuleSet& rules = file.target().rules();
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || !file.text(ci).starts_with("rocsolver_")) continue;
    const rules::Rule* r = rules.find_identifier(file.text(ci));
    if (!r || !r->has_replacement() || r->status == rules::Status::Unsupported) return true;
  }
  return false;
}

void no_twin_includes(migrate::FileMigration& file) {
  struct Lib {
    std::string_view header;
    std::string_view why;
  };
  static constexpr Lib kLibs[] = {
      {"rocsolver/rocsolver.h",
       "rocSOLVER's LAPACK-style calls take a rocblas_handle and allocate their own workspace; cuSOLVER's take a "
       "cusolverDnHandle_t and a workspace sized by a *_bufferSize query, and the tridiagonal output of syev and "
       "the batched eigensolvers have no cuSOLVER function of that shape (only getrf, getf2 and getri are bridged, "
       "by ferry/compat_cusolver.h)"},
      {"rocsolver.h", "rocSOLVER's calls take a rocblas_handle and no workspace; cuSOLVER's need a workspace"},
      {"rocfft/rocfft.h",
       "rocFFT's plan API (rocfft_plan_create with a plan description, execution info, callbacks and multi-GPU "
       "fields) has no same-shape cuFFT API: cuFFT plans with cufftPlanMany/cufftXt*"},
      {"rocfft.h", "rocFFT's plan API has no same-shape cuFFT API"},
      {"rocrand/rocrand.hpp",
       "rocRAND's C++ wrapper (rocrand_cpp:: engines and distributions) has no cuRAND counterpart: cuRAND has "
       "only its C API"},
      {"rocrand.hpp", "rocRAND's C++ wrapper has no cuRAND counterpart"},
  };
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    if (!file.is(ci, "#") || !file.is(ci + 1, "include") || file.excluded(ci)) {
      continue;
    }
    std::string_view h = file.text(ci + 2);
    if (h.size() < 2) continue;
    std::string path;
    if (h.front() == '"') path = std::string(h.substr(1, h.size() - 2));
    else if (h == "<") {
      for (std::size_t k = ci + 3; k <= file.directive_last(ci) && !file.is(k, ">"); ++k) path += file.text(k);
    } else if (h.front() == '<') path = std::string(h.substr(1, h.size() - 2));
    for (const Lib& l : kLibs)
      if (path == l.header) {
        // rocSOLVER's header maps (rules/hip2cuda/rocsparse.tsv); only its calls do not.
        if (path.starts_with("rocsolver") && !unmapped_rocsolver_call(file)) break;
        file.diag(Diag::RocNativeNoTwinCuda, ci + 2,
                  "'" + path + "': " + std::string(l.why) + "; the calls are left as written",
                  path.find("rocrand") != std::string::npos
                      ? "use hipRAND/cuRAND's C API (curandCreateGenerator, curandGenerate*)"
                      : (path.find("rocfft") != std::string::npos
                             ? "port the transforms to hipFFT (hipfftPlanMany), which Ferry maps to cuFFT"
                             : "port the calls to hipSOLVER (hipsolverDn*), which Ferry maps to cuSOLVER"));
        break;
      }
  }
}

}  // namespace

void roc_native_pass(migrate::FileMigration& file) {
  if (file.project().migrated_by == "hip") return;  // a round trip's way back: the CUDA original's text
  const std::string_view src = file.source();
  if (src.find("rocsparse") == std::string_view::npos && src.find("ROCSPARSE") == std::string_view::npos &&
      src.find("rocsolver") == std::string_view::npos && src.find("rocfft") == std::string_view::npos &&
      src.find("rocrand") == std::string_view::npos && src.find("rocblas_status_") == std::string_view::npos)
    return;
  version_tests(file);
  status_cases(file);
  staged_calls(file);
  bsrmv_calls(file);
  mat_infos(file);
  no_twin_includes(file);
}

void roc_native_finish(migrate::FileMigration& file) {
  // Written by an edit, or already in the source: a migrated file migrated again (a round trip's
  // second way there) keeps the calls and needs the header as much.
  bool sparse = file.mentions("cusparse_compat"), solver = file.mentions("cusolver_compat");
  for (const rewrite::Edit& e : file.edits().edits()) {
    sparse = sparse || e.replacement.find("ferry::cusparse_compat::") != std::string::npos;
    solver = solver || e.replacement.find("ferry::cusolver_compat::") != std::string::npos;
  }
  if (sparse) use_side_header(file, kCusparseHeaderName, kCusparseHeaderText);
  if (solver) use_side_header(file, kCusolverHeaderName, kCusolverHeaderText);
}

}  // namespace ferry::targets::cuda
