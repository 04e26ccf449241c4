// rmsnorm.cu - RMSNorm, one block per row.
//
// Shows: __launch_bounds__(1024), float4 vector loads, a block reduction from
// reduce.cuh (which must come after common.cuh).
#include <algorithm>
#include <cstdint>

#include "llama_ops/common.cuh"
#include "llama_ops/reduce.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

// Vectorised path: hidden % 4 == 0 and 16-byte aligned rows.
__global__ void __launch_bounds__(1024)
rmsnorm_f32x4_kernel(const float4* __restrict__ x, const float4* __restrict__ weight,
                     float4* __restrict__ y, int hidden4, float inv_hidden, float eps) {
    const int row = blockIdx.x;
    const float4* xr = x + (size_t)row * hidden4;
    float4* yr = y + (size_t)row * hidden4;

    float sum_sq = 0.f;
    for (int i = threadIdx.x; i < hidden4; i += blockDim.x) {
        float4 v = xr[i];
        sum_sq += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    sum_sq = block_reduce_sum(sum_sq);
    const float rstd = rsqrtf(sum_sq * inv_hidden + eps);

    for (int i = threadIdx.x; i < hidden4; i += blockDim.x) {
        float4 v = xr[i];
        float4 w = weight[i];
        yr[i] = make_float4(v.x * rstd * w.x, v.y * rstd * w.y,
                            v.z * rstd * w.z, v.w * rstd * w.w);
    }
}

__global__ void rmsnorm_f32_kernel(const float* __restrict__ x, const float* __restrict__ weight,
                                   float* __restrict__ y, int hidden, float eps) {
    const int row = blockIdx.x;
    const float* xr = x + (size_t)row * hidden;
    float* yr = y + (size_t)row * hidden;

    float sum_sq = 0.f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) sum_sq += xr[i] * xr[i];
    sum_sq = block_reduce_sum(sum_sq);
    const float rstd = rsqrtf(sum_sq / hidden + eps);

    for (int i = threadIdx.x; i < hidden; i += blockDim.x) yr[i] = xr[i] * rstd * weight[i];
}

void rmsnorm(const float* x, const float* weight, float* y, int rows, int hidden,
             float eps, cudaStream_t stream) {
    const bool aligned = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y) |
                           reinterpret_cast<uintptr_t>(weight)) & 15) == 0;
    if (hidden % 4 == 0 && aligned) {
        const int hidden4 = hidden / 4;
        // One float4 per thread for hidden = 4096; round up to whole warps.
        int threads = std::min(MAX_THREADS_PER_BLOCK, CEIL_DIV(hidden4, WARP_SIZE) * WARP_SIZE);
        rmsnorm_f32x4_kernel<<<rows, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(x), reinterpret_cast<const float4*>(weight),
            reinterpret_cast<float4*>(y), hidden4, 1.0f / hidden, eps);
    } else {
        rmsnorm_f32_kernel<<<rows, 256, 0, stream>>>(x, weight, y, hidden, eps);
    }
    CUDA_CHECK_LAUNCH();
}

}  // namespace llama_ops
