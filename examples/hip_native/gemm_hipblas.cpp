// gemm_hipblas.cpp - row-major SGEMM through hipBLAS (column-major).
//
// Row-major C = A * B is column-major C^T = B^T * A^T: pass B first and swap
// M and N. Kept in its own file so the rest builds without hipBLAS.
#include <hipblas/hipblas.h>

#include "common.h"
#include "kernels.h"

void sgemm_rowmajor(const float* A, const float* B, float* C, int M, int N, int K,
                    hipStream_t stream) {
    static hipblasHandle_t handle = nullptr;
    if (!handle) HIPBLAS_CHECK(hipblasCreate(&handle));
    HIPBLAS_CHECK(hipblasSetStream(handle, stream));
    const float alpha = 1.f, beta = 0.f;
    HIPBLAS_CHECK(hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, N, M, K, &alpha, B, N, A, K,
                               &beta, C, N));
}
