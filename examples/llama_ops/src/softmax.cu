// softmax.cu - row softmax.
//
// Shows: a kernel templated on the block size, launched with all four launch
// parameters <<<grid, block, smem, stream>>>; `extern __shared__` dynamic
// shared memory sized at launch; cudaFuncSetAttribute to go beyond 48 KiB of
// dynamic shared memory (a row of a 32000-entry vocabulary is 125 KiB); and a
// fall-back kernel without the row cache when the device has less.
#include <cfloat>

#include "llama_ops/common.cuh"
#include "llama_ops/reduce.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

// Keeps the scaled row in shared memory: one read of x, one write of y.
template <int BLOCK_SIZE>
__global__ void softmax_smem_kernel(const float* __restrict__ x, float* __restrict__ y,
                                    int cols, float scale) {
    extern __shared__ float row_cache[];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float local_max = -FLT_MAX;
    for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE) {
        const float v = xr[i] * scale;
        row_cache[i] = v;
        local_max = fmaxf(local_max, v);
    }
    const float row_max = block_reduce_max(local_max);

    float local_sum = 0.f;
    for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE) {
        const float e = __expf(row_cache[i] - row_max);
        row_cache[i] = e;
        local_sum += e;
    }
    const float inv_sum = 1.f / block_reduce_sum(local_sum);

    for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE) yr[i] = row_cache[i] * inv_sum;
}

// Three passes over global memory; for rows that do not fit in shared memory.
template <int BLOCK_SIZE>
__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols,
                               float scale) {
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float local_max = -FLT_MAX;
    for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE) local_max = fmaxf(local_max, xr[i] * scale);
    const float row_max = block_reduce_max(local_max);

    float local_sum = 0.f;
    for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE) local_sum += __expf(xr[i] * scale - row_max);
    const float inv_sum = 1.f / block_reduce_sum(local_sum);

    for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE)
        yr[i] = __expf(xr[i] * scale - row_max) * inv_sum;
}

template <int BLOCK_SIZE>
static void launch_softmax(const float* x, float* y, int rows, int cols, float scale,
                           cudaStream_t stream) {
    const size_t smem = (size_t)cols * sizeof(float);
    int device = 0, max_optin = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&max_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                      device));
    if (smem <= (size_t)max_optin) {
        if (smem > 48 * 1024) {
            CUDA_CHECK(cudaFuncSetAttribute(softmax_smem_kernel<BLOCK_SIZE>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)smem));
        }
        softmax_smem_kernel<BLOCK_SIZE><<<rows, BLOCK_SIZE, smem, stream>>>(x, y, cols, scale);
    } else {
        softmax_kernel<BLOCK_SIZE><<<rows, BLOCK_SIZE, 0, stream>>>(x, y, cols, scale);
    }
    CUDA_CHECK_LAUNCH();
}

void softmax(const float* x, float* y, int rows, int cols, float scale, cudaStream_t stream) {
    if (cols <= 128)
        launch_softmax<128>(x, y, rows, cols, scale, stream);
    else if (cols <= 1024)
        launch_softmax<256>(x, y, rows, cols, scale, stream);
    else
        launch_softmax<1024>(x, y, rows, cols, scale, stream);
}

}  // namespace llama_ops
