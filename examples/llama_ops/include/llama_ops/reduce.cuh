// reduce.cuh - block-wide reductions built on the warp helpers.
//
// NOTE: not self-contained on purpose (as in many real code bases): include it
// after "llama_ops/common.cuh", which provides WARP_SIZE, warp_reduce_sum and
// warp_reduce_max. The per-warp scratch arrays hold 32 entries, i.e. at most
// 1024 / 32 warps per block.
#pragma once

namespace llama_ops {

// Sum over the whole block; every thread gets the result.
template <typename T>
__device__ __forceinline__ T block_reduce_sum(T val) {
    __shared__ T shared[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int num_warps = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;

    val = warp_reduce_sum(val);
    if (lane == 0) shared[warp] = val;
    __syncthreads();

    val = (lane < num_warps) ? shared[lane] : T(0);
    val = warp_reduce_sum(val);  // every warp reduces the partials itself
    __syncthreads();             // `shared` may be reused by the next call
    return val;
}

// Max over the whole block; every thread gets the result.
template <typename T>
__device__ __forceinline__ T block_reduce_max(T val) {
    __shared__ T shared[32];
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    const int num_warps = blockDim.x / WARP_SIZE;

    val = warp_reduce_max(val);
    if (lane == 0) shared[warp] = val;
    __syncthreads();

    val = (lane < num_warps) ? shared[lane] : T(-INFINITY);
    val = warp_reduce_max(val);
    __syncthreads();
    return val;
}

}  // namespace llama_ops
