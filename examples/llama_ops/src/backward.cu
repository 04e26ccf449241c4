// backward.cu - launchers of the backward kernels (kernels/backward.cuh).
#include <algorithm>

#include "llama_ops/common.cuh"
#include "llama_ops/kernels/backward.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

size_t rmsnorm_backward_workspace(int rows, int hidden) {
    const size_t chunks = CEIL_DIV(rows, bwd::kRmsChunk);
    return (size_t)rows + chunks * (size_t)hidden;
}

void rmsnorm_backward(const float* x, const float* weight, const float* dy, float* dx,
                      float* dweight, int rows, int hidden, float eps, float* workspace,
                      cudaStream_t stream) {
    float* rstd = workspace;
    float* partial = workspace + rows;
    bwd::rmsnorm_backward_kernel<bwd::kRmsThreads><<<rows, bwd::kRmsThreads, 0, stream>>>(
        x, weight, dy, dx, rstd, hidden, eps);
    CUDA_CHECK_LAUNCH();
    const int chunks = CEIL_DIV(rows, bwd::kRmsChunk);
    const int threads = 256;
    const dim3 grid(CEIL_DIV(hidden, threads), chunks);
    bwd::rmsnorm_dweight_partial_kernel<<<grid, threads, 0, stream>>>(x, dy, rstd, partial, rows, hidden);
    CUDA_CHECK_LAUNCH();
    bwd::sum_columns_kernel<<<CEIL_DIV(hidden, threads), threads, 0, stream>>>(partial, dweight, chunks, hidden);
    CUDA_CHECK_LAUNCH();
}

static int grid_for(int64_t n, int threads) {
    return (int)std::max<int64_t>(1, std::min<int64_t>(CEIL_DIV(n, (int64_t)threads), 65535));
}

void swiglu_backward(const float* gate, const float* up, const float* dout, float* dgate, float* dup,
                     int64_t n, cudaStream_t stream) {
    const int threads = 256;
    bwd::swiglu_backward_kernel<<<grid_for(n, threads), threads, 0, stream>>>(gate, up, dout, dgate, dup, n);
    CUDA_CHECK_LAUNCH();
}

void embedding_backward(const int* ids, const float* dout, float* dtable, int tokens, int hidden,
                        int vocab, cudaStream_t stream) {
    CUDA_CHECK(cudaMemsetAsync(dtable, 0, (size_t)vocab * hidden * sizeof(float), stream));
    const int threads = 256;
    bwd::embedding_backward_kernel<<<grid_for((int64_t)tokens * hidden, threads), threads, 0, stream>>>(
        ids, dout, dtable, tokens, hidden, vocab);
    CUDA_CHECK_LAUNCH();
}

}  // namespace llama_ops
