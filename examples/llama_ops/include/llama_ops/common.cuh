// common.cuh - error-check macros and warp-level helpers shared by every kernel.
//
// Like most operator libraries written for NVIDIA GPUs, this header assumes a
// 32-lane warp everywhere: WARP_SIZE is a literal, masks are 0xffffffff and the
// butterfly reductions start at offset 16.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff
#define MAX_THREADS_PER_BLOCK 1024

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n",              \
                    cudaGetErrorName(err_), (int)err_, __FILE__, __LINE__,    \
                    cudaGetErrorString(err_));                                \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// The two macros below expand to cuBLAS / NCCL names; only translation units
// that include <cublas_v2.h> / <nccl.h> may use them.
#define CUBLAS_CHECK(call)                                                    \
    do {                                                                      \
        cublasStatus_t st_ = (call);                                          \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                   \
            fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)st_,           \
                    __FILE__, __LINE__);                                      \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define NCCL_CHECK(call)                                                      \
    do {                                                                      \
        ncclResult_t res_ = (call);                                           \
        if (res_ != ncclSuccess) {                                            \
            fprintf(stderr, "NCCL error %s at %s:%d\n",                       \
                    ncclGetErrorString(res_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// Check the last launch; in debug builds also wait for it, so the error is
// reported at the right kernel.
#ifdef LLAMA_OPS_DEBUG_SYNC
#define CUDA_CHECK_LAUNCH()                                                   \
    do {                                                                      \
        CUDA_CHECK(cudaGetLastError());                                       \
        CUDA_CHECK(cudaDeviceSynchronize());                                  \
    } while (0)
#else
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
#endif

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

namespace llama_ops {

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T val) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_xor_sync(0xffffffff, val, offset);
    return val;
}

template <typename T>
__device__ __forceinline__ T warp_reduce_max(T val) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        val = max(val, __shfl_xor_sync(0xffffffff, val, offset));
    return val;
}

// Arg-max over the warp; ties go to the smaller index.
__device__ __forceinline__ void warp_reduce_argmax(float& val, int& idx) {
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
        float other_val = __shfl_xor_sync(FULL_MASK, val, offset);
        int other_idx = __shfl_xor_sync(FULL_MASK, idx, offset);
        if (other_val > val || (other_val == val && other_idx < idx)) {
            val = other_val;
            idx = other_idx;
        }
    }
}

__device__ __forceinline__ float silu(float x) {
    return x / (1.0f + expf(-x));
}

// Bit mask of the lanes below this one (what %lanemask_lt gives in PTX).
__device__ __forceinline__ unsigned lanemask_lt() {
    const int lane = threadIdx.x & 31;
    return (1u << lane) - 1u;
}

}  // namespace llama_ops
