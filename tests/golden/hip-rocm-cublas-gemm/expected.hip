// cuBLAS (hipBLAS after migration): handle, stream, an SGEMM, a strided-batched HGEMM, and the
// status checks (cublasGetStatusString: hipblasStatusToString). The HGEMM's __half pointers get
// casts to hipblasHalf* (hipBLAS declares uint16_t); the complex calls, for hipBLAS 5.x, its own
// functions on hipblasComplex*. Compiled against the real hipBLAS headers (rocm.headers).
#include <hipblas/hipblas.h>
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
/* ferry-cuda: #include <cuda_runtime.h> */
#include <cstdio>
#include <hip/hip_complex.h> /* ferry-cuda: (none) */

#define CHECK_CUBLAS(x)                                                \
  do {                                                                 \
    hipblasStatus_t s = (x);                                            \
    if (s != HIPBLAS_STATUS_SUCCESS) {                                  \
      fprintf(stderr, "cublas error %s at %s:%d\n", hipblasStatusToString(s), __FILE__, __LINE__); \
      return 1;                                                        \
    }                                                                  \
  } while (0)

int gemm(const float* a, const float* b, float* c, int m, int n, int k, hipStream_t stream) {
  hipblasHandle_t handle;
  CHECK_CUBLAS(hipblasCreate(&handle));
  CHECK_CUBLAS(hipblasSetStream(handle, stream));
  const float alpha = 1.0f, beta = 0.0f;
  CHECK_CUBLAS(hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &alpha, a, m, b, n, &beta, c, m));
  CHECK_CUBLAS(hipblasDestroy(handle));
  return 0;
}

int hgemm_batched(hipblasHandle_t handle, const __half* a, const __half* b, __half* c, int m, int n, int k,
                  int batch) {
  const __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
  CHECK_CUBLAS(hipblasHgemmStridedBatched(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, ((const hipblasHalf*)(&alpha)) /* ferry-cuda: &alpha */, ((const hipblasHalf*)(a)) /* ferry-cuda: a */, m,
                                         (long long)m * k, ((const hipblasHalf*)(b)) /* ferry-cuda: b */, k, (long long)k * n, ((const hipblasHalf*)(&beta)) /* ferry-cuda: &beta */, ((hipblasHalf*)(c)) /* ferry-cuda: c */, m,
                                         (long long)m * n, batch));
  return 0;
}

int cgemm(hipblasHandle_t handle, const hipComplex* a, const hipComplex* b, hipComplex* c, int n) {
  const hipComplex alpha = make_hipComplex(1.0f, 0.0f), beta = make_hipComplex(0.0f, 0.0f);
  CHECK_CUBLAS(hipblasCgemm /* ferry-cuda: cublasCgemm */(handle, HIPBLAS_OP_N, HIPBLAS_OP_C, n, n, n, ((const hipblasComplex*)(&alpha)) /* ferry-cuda: &alpha */, ((const hipblasComplex*)(a)) /* ferry-cuda: a */, n, ((const hipblasComplex*)(b)) /* ferry-cuda: b */, n, ((const hipblasComplex*)(&beta)) /* ferry-cuda: &beta */, ((hipblasComplex*)(c)) /* ferry-cuda: c */, n));
  hipDoubleComplex dot;
  CHECK_CUBLAS(hipblasZdotc /* ferry-cuda: cublasZdotc */(handle, n, ((const hipblasDoubleComplex*)((const hipDoubleComplex*)a)) /* ferry-cuda: (const cuDoubleComplex*)a */, 1, ((const hipblasDoubleComplex*)((const hipDoubleComplex*)b)) /* ferry-cuda: (const cuDoubleComplex*)b */, 1, ((hipblasDoubleComplex*)(&dot)) /* ferry-cuda: &dot */));
  return 0;
}
