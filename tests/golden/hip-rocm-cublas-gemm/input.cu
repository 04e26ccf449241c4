// cuBLAS (hipBLAS after migration): handle, stream, an SGEMM, a strided-batched HGEMM, and the
// status checks (cublasGetStatusString: hipblasStatusToString). The HGEMM's __half pointers get
// casts to hipblasHalf* (hipBLAS declares uint16_t); the complex calls, for hipBLAS 5.x, its own
// functions on hipblasComplex*. Compiled against the real hipBLAS headers (rocm.headers).
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK_CUBLAS(x)                                                \
  do {                                                                 \
    cublasStatus_t s = (x);                                            \
    if (s != CUBLAS_STATUS_SUCCESS) {                                  \
      fprintf(stderr, "cublas error %s at %s:%d\n", cublasGetStatusString(s), __FILE__, __LINE__); \
      return 1;                                                        \
    }                                                                  \
  } while (0)

int gemm(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  CHECK_CUBLAS(cublasSetStream(handle, stream));
  const float alpha = 1.0f, beta = 0.0f;
  CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, a, m, b, n, &beta, c, m));
  CHECK_CUBLAS(cublasDestroy(handle));
  return 0;
}

int hgemm_batched(cublasHandle_t handle, const __half* a, const __half* b, __half* c, int m, int n, int k,
                  int batch) {
  const __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
  CHECK_CUBLAS(cublasHgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, a, m,
                                         (long long)m * k, b, k, (long long)k * n, &beta, c, m,
                                         (long long)m * n, batch));
  return 0;
}

int cgemm(cublasHandle_t handle, const cuComplex* a, const cuComplex* b, cuComplex* c, int n) {
  const cuComplex alpha = make_cuComplex(1.0f, 0.0f), beta = make_cuComplex(0.0f, 0.0f);
  CHECK_CUBLAS(cublasCgemm(handle, CUBLAS_OP_N, CUBLAS_OP_C, n, n, n, &alpha, a, n, b, n, &beta, c, n));
  cuDoubleComplex dot;
  CHECK_CUBLAS(cublasZdotc(handle, n, (const cuDoubleComplex*)a, 1, (const cuDoubleComplex*)b, 1, &dot));
  return 0;
}
