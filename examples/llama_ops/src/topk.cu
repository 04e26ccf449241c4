// topk.cu - per-row top-k of the logits, for top-k sampling.
//
// One block per row. Radix select on the order-preserving integer image of the
// floats finds the k-th largest key bit by bit; each step counts the keys
// above a candidate with __ballot_sync + __popc (one ballot per warp and
// chunk). A second pass compacts the selected elements in index order using
// the ballot masks and lanemask_lt(), and a small rank sort orders the result.
#include "llama_ops/common.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

// Maps a float to an unsigned key with the same order (for non-NaN values).
__device__ __forceinline__ unsigned float_to_key(float f) {
    unsigned u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__device__ __forceinline__ float key_to_float(unsigned key) {
    unsigned u = (key & 0x80000000u) ? (key & 0x7fffffffu) : ~key;
    return __uint_as_float(u);
}

__global__ void topk_radix_select_kernel(const float* __restrict__ logits,
                                         float* __restrict__ out_vals, int* __restrict__ out_idx,
                                         int cols, int k) {
    __shared__ unsigned s_warp_count[32];
    __shared__ unsigned s_warp_gt[32];
    __shared__ unsigned s_warp_eq[32];
    __shared__ unsigned s_base_gt, s_base_eq;
    __shared__ float s_vals[kMaxTopK];
    __shared__ int s_idx[kMaxTopK];
    __shared__ int s_eq_idx[kMaxTopK];

    const float* row = logits + (size_t)blockIdx.x * cols;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int num_warps = blockDim.x >> 5;

    // 1. Largest threshold T with count(key >= T) >= k: that is the k-th key.
    unsigned prefix = 0;
    for (int bit = 31; bit >= 0; --bit) {
        const unsigned candidate = prefix | (1u << bit);
        unsigned count = 0;
        // Every lane runs the same number of iterations, so the full mask is right.
        for (int base = 0; base < cols; base += blockDim.x) {
            const int i = base + threadIdx.x;
            const bool hit = i < cols && float_to_key(row[i]) >= candidate;
            unsigned ballot = __ballot_sync(0xffffffff, hit);
            count += __popc(ballot);
        }
        if (lane == 0) s_warp_count[warp] = count;
        __syncthreads();
        unsigned total = 0;
        for (int w = 0; w < num_warps; ++w) total += s_warp_count[w];
        __syncthreads();
        if (total >= (unsigned)k) prefix = candidate;
    }
    const unsigned threshold = prefix;

    // 2. Ordered compaction: keys > T all go in; keys == T fill the rest, lowest index first.
    if (threadIdx.x == 0) s_base_gt = s_base_eq = 0;
    __syncthreads();
    for (int base = 0; base < cols; base += blockDim.x) {
        const int i = base + threadIdx.x;
        const unsigned key = i < cols ? float_to_key(row[i]) : 0u;
        const bool gt = i < cols && key > threshold;
        const bool eq = i < cols && key == threshold;
        const unsigned m_gt = __ballot_sync(FULL_MASK, gt);
        const unsigned m_eq = __ballot_sync(FULL_MASK, eq);
        if (lane == 0) {
            s_warp_gt[warp] = __popc(m_gt);
            s_warp_eq[warp] = __popc(m_eq);
        }
        __syncthreads();
        unsigned off_gt = s_base_gt, off_eq = s_base_eq;
        for (int w = 0; w < warp; ++w) {
            off_gt += s_warp_gt[w];
            off_eq += s_warp_eq[w];
        }
        if (gt) {
            const unsigned pos = off_gt + __popc(m_gt & lanemask_lt());
            s_vals[pos] = row[i];  // pos < k: fewer than k keys exceed T
            s_idx[pos] = i;
        }
        if (eq) {
            const unsigned pos = off_eq + __popc(m_eq & lanemask_lt());
            if (pos < (unsigned)k) s_eq_idx[pos] = i;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int w = 0; w < num_warps; ++w) {
                s_base_gt += s_warp_gt[w];
                s_base_eq += s_warp_eq[w];
            }
        }
        __syncthreads();
    }
    const int n_gt = (int)s_base_gt;
    for (int t = threadIdx.x; t < k - n_gt; t += blockDim.x) {
        s_vals[n_gt + t] = key_to_float(threshold);
        s_idx[n_gt + t] = s_eq_idx[t];
    }
    __syncthreads();

    // 3. Rank sort of the k winners: value descending, then index ascending.
    for (int t = threadIdx.x; t < k; t += blockDim.x) {
        const float v = s_vals[t];
        const int id = s_idx[t];
        int rank = 0;
        for (int j = 0; j < k; ++j) {
            const float vj = s_vals[j];
            rank += (vj > v) || (vj == v && s_idx[j] < id);
        }
        out_vals[(size_t)blockIdx.x * k + rank] = v;
        out_idx[(size_t)blockIdx.x * k + rank] = id;
    }
}

void topk_rows(const float* logits, float* out_vals, int* out_idx, int rows, int cols, int k,
               cudaStream_t stream) {
    if (k < 1 || k > kMaxTopK || k > cols) {
        fprintf(stderr, "topk_rows: k=%d out of range (cols=%d, max %d)\n", k, cols, kMaxTopK);
        exit(EXIT_FAILURE);
    }
    const int threads = cols >= 8192 ? 1024 : 256;
    topk_radix_select_kernel<<<rows, threads, 0, stream>>>(logits, out_vals, out_idx, cols, k);
    CUDA_CHECK_LAUNCH();
}

}  // namespace llama_ops
