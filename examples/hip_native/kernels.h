// kernels.h - host entry points of the HIP example kernels (kernels.cpp) and
// of the hipBLAS wrapper (gemm_hipblas.cpp).
#pragma once

#include <cstdint>
#include <hip/hip_runtime.h>

// *out = sum(x[0..n)). *out must be zeroed first (atomic accumulation).
void reduce_sum(const float* x, float* out, int n, hipStream_t stream);
// *count = number of x[i] > threshold. *count must be zeroed first.
void count_above(const float* x, unsigned long long* count, int n, float threshold,
                 hipStream_t stream);
// Sets the constants used by scale_bias (kept in __constant__ memory).
void set_scale_bias(float scale, float bias);
// y = x * scale + bias.
void scale_bias(const float* x, float* y, int n, hipStream_t stream);
// y = softmax(x) per row.
void row_softmax(const float* x, float* y, int rows, int cols, hipStream_t stream);
// Inclusive prefix sum within each segment of `segment` elements (segment == block size).
constexpr int kScanSegment = 256;
void segmented_scan(const int* x, int* y, int n, hipStream_t stream);

// gemm_hipblas.cpp: row-major C[M,N] = A[M,K] * B[K,N] with hipblasSgemm.
void sgemm_rowmajor(const float* A, const float* B, float* C, int M, int N, int K,
                    hipStream_t stream);
