// Runs the llama_ops kernels that do not need cuBLAS or NCCL (softmax, RMSNorm, top-k,
// attention, embedding, RoPE, SwiGLU, and the block/warp reductions of reduce.cuh/common.cuh) on
// random inputs and checks each against the library's CPU reference. Written in CUDA, like the
// library: the wave64 tests migrate it with the library and run it at wave 64 and wave 32.
//
// Output: per case "OP <name> <PASS|FAIL> err=<max abs error>" and "SUM <name> <checksum>" (the
// checksums are what `ferry diffrun --wave64` compares across wave sizes); exit 1 on a failure.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "llama_ops/common.cuh"
#include "llama_ops/ops.h"
#include "llama_ops/reduce.cuh"
#include "llama_ops/reference.h"

using namespace llama_ops;

namespace {

int g_failures = 0;

void report(const char* name, double err, double tol, double checksum) {
    const bool ok = err <= tol;
    if (!ok) ++g_failures;
    printf("OP %-22s %s err=%.2e tol=%.0e\n", name, ok ? "PASS" : "FAIL", err, tol);
    printf("SUM %-22s %.6e\n", name, checksum);
}

double sum_of(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += x;
    return s;
}

template <typename T>
T* to_device(const std::vector<T>& h) {
    T* d = nullptr;
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T>
std::vector<T> to_host(const T* d, size_t n) {
    std::vector<T> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

// The reductions of reduce.cuh / common.cuh, one row per block.
__global__ void reductions_kernel(const float* x, int cols, float* sums, float* maxes, float* argmax_val,
                                  int* argmax_idx) {
    const float* row = x + (size_t)blockIdx.x * cols;
    float s = 0.f, m = -INFINITY;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) {
        s += row[i];
        m = fmaxf(m, row[i]);
    }
    s = block_reduce_sum(s);
    m = block_reduce_max(m);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = s;
        maxes[blockIdx.x] = m;
    }
    // Arg-max of the first warp's elements (one per lane).
    float v = threadIdx.x < (unsigned)cols ? row[threadIdx.x] : -INFINITY;
    int idx = threadIdx.x;
    if (threadIdx.x < WARP_SIZE) {
        warp_reduce_argmax(v, idx);
        if (threadIdx.x == 0) {
            argmax_val[blockIdx.x] = v;
            argmax_idx[blockIdx.x] = idx;
        }
    }
}

void check_reductions(ref::Rng& rng, int threads, int rows, int cols) {
    std::vector<float> x((size_t)rows * cols);
    rng.fill(x, -1.f, 1.f);
    float* d_x = to_device(x);
    float *d_s, *d_m, *d_av;
    int* d_ai;
    CUDA_CHECK(cudaMalloc(&d_s, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_m, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_av, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_ai, rows * sizeof(int)));
    reductions_kernel<<<rows, threads>>>(d_x, cols, d_s, d_m, d_av, d_ai);
    CUDA_CHECK_LAUNCH();
    const std::vector<float> s = to_host(d_s, rows), m = to_host(d_m, rows), av = to_host(d_av, rows);
    const std::vector<int> ai = to_host(d_ai, rows);
    double err = 0;
    for (int r = 0; r < rows; ++r) {
        double ws = 0;
        float wm = -INFINITY, wav = -INFINITY;
        int wai = 0;
        for (int i = 0; i < cols; ++i) {
            const float xi = x[(size_t)r * cols + i];
            ws += xi;
            wm = fmaxf(wm, xi);
            // The reduction covers the first warp: 32 lanes on NVIDIA, a wavefront on AMD.
            if (i < WARP_SIZE && i < threads && (xi > wav)) {
                wav = xi;
                wai = i;
            }
        }
        err = std::max(err, std::fabs(ws - s[r]) / cols);
        err = std::max(err, (double)std::fabs(wm - m[r]));
        err = std::max(err, (double)std::fabs(wav - av[r]) + (wai == ai[r] ? 0.0 : 1.0));
    }
    char name[64];
    snprintf(name, sizeof name, "reductions.t%d", threads);
    report(name, err, 1e-5, sum_of(s) + sum_of(m));
    cudaFree(d_x);
    cudaFree(d_s);
    cudaFree(d_m);
    cudaFree(d_av);
    cudaFree(d_ai);
}

void check_rmsnorm(ref::Rng& rng, int rows, int hidden) {
    std::vector<float> x((size_t)rows * hidden), w(hidden), want(x.size());
    rng.fill(x, -2.f, 2.f);
    rng.fill(w, 0.5f, 1.5f);
    float *d_x = to_device(x), *d_w = to_device(w), *d_y;
    CUDA_CHECK(cudaMalloc(&d_y, x.size() * sizeof(float)));
    rmsnorm(d_x, d_w, d_y, rows, hidden, 1e-5f, 0);
    const std::vector<float> got = to_host(d_y, x.size());
    ref::rmsnorm(x.data(), w.data(), want.data(), rows, hidden, 1e-5f);
    char name[64];
    snprintf(name, sizeof name, "rmsnorm.h%d", hidden);
    report(name, ref::max_abs_diff(got.data(), want.data(), got.size()), 1e-4, sum_of(got));
    cudaFree(d_x);
    cudaFree(d_w);
    cudaFree(d_y);
}

void check_softmax(ref::Rng& rng, int rows, int cols) {
    std::vector<float> x((size_t)rows * cols), want(x.size());
    rng.fill(x, -8.f, 8.f);
    float *d_x = to_device(x), *d_y;
    CUDA_CHECK(cudaMalloc(&d_y, x.size() * sizeof(float)));
    softmax(d_x, d_y, rows, cols, 1.25f, 0);
    const std::vector<float> got = to_host(d_y, x.size());
    ref::softmax(x.data(), want.data(), rows, cols, 1.25f);
    char name[64];
    snprintf(name, sizeof name, "softmax.c%d", cols);
    report(name, ref::max_abs_diff(got.data(), want.data(), got.size()), 1e-6, sum_of(got));
    cudaFree(d_x);
    cudaFree(d_y);
}

void check_topk(ref::Rng& rng, int rows, int cols, int k, bool ties) {
    std::vector<float> x((size_t)rows * cols);
    rng.fill(x, -8.f, 8.f);
    if (ties)
        for (float& v : x) v = std::round(v * 4.f) / 4.f;
    float* d_x = to_device(x);
    float* d_v;
    int* d_i;
    CUDA_CHECK(cudaMalloc(&d_v, (size_t)rows * k * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_i, (size_t)rows * k * sizeof(int)));
    topk_rows(d_x, d_v, d_i, rows, cols, k, 0);
    const std::vector<float> got_v = to_host(d_v, (size_t)rows * k);
    const std::vector<int> got_i = to_host(d_i, (size_t)rows * k);
    std::vector<float> want_v((size_t)rows * k);
    std::vector<int> want_i((size_t)rows * k);
    ref::topk_rows(x.data(), want_v.data(), want_i.data(), rows, cols, k);
    int mismatch = 0;
    double idx_sum = 0;
    for (size_t i = 0; i < got_i.size(); ++i) {
        mismatch += got_i[i] != want_i[i];
        idx_sum += got_i[i];
    }
    double err = ref::max_abs_diff(got_v.data(), want_v.data(), got_v.size());
    if (mismatch) err = INFINITY;
    char name[64];
    snprintf(name, sizeof name, "topk%s.c%d", ties ? "_ties" : "", cols);
    report(name, err, 0.0, idx_sum);
    cudaFree(d_x);
    cudaFree(d_v);
    cudaFree(d_i);
}

void check_attention(ref::Rng& rng, int heads, int seq, int head_dim) {
    const size_t n = (size_t)heads * seq * head_dim;
    std::vector<float> q(n), k(n), v(n), want(n);
    rng.fill(q);
    rng.fill(k);
    rng.fill(v);
    float *d_q = to_device(q), *d_k = to_device(k), *d_v = to_device(v), *d_o;
    CUDA_CHECK(cudaMalloc(&d_o, n * sizeof(float)));
    if (!attention_causal(d_q, d_k, d_v, d_o, 1, heads, seq, head_dim, 0)) {
        report("attention", INFINITY, 1e-4, 0);
        return;
    }
    const std::vector<float> got = to_host(d_o, n);
    ref::attention_causal(q.data(), k.data(), v.data(), want.data(), 1, heads, seq, head_dim);
    char name[64];
    snprintf(name, sizeof name, "attention.s%d.d%d", seq, head_dim);
    report(name, ref::max_abs_diff(got.data(), want.data(), n), 1e-4, sum_of(got));
    cudaFree(d_q);
    cudaFree(d_k);
    cudaFree(d_v);
    cudaFree(d_o);
}

void check_embedding(ref::Rng& rng, int tokens, int hidden, int vocab) {
    std::vector<float> table((size_t)vocab * hidden), want((size_t)tokens * hidden);
    rng.fill(table);
    std::vector<int> ids(tokens);
    for (int& id : ids) id = rng.randint(0, vocab);
    ids[tokens - 1] = -1;
    float *d_t = to_device(table), *d_o;
    int* d_ids = to_device(ids);
    CUDA_CHECK(cudaMalloc(&d_o, want.size() * sizeof(float)));
    embedding_lookup(d_ids, d_t, d_o, tokens, hidden, vocab, 0);
    const std::vector<float> got = to_host(d_o, want.size());
    ref::embedding(ids.data(), table.data(), want.data(), tokens, hidden, vocab);
    report("embedding", ref::max_abs_diff(got.data(), want.data(), got.size()), 0.0, sum_of(got));
    cudaFree(d_t);
    cudaFree(d_o);
    cudaFree(d_ids);
}

void check_rope_swiglu(ref::Rng& rng, int tokens, int heads, int head_dim) {
    const size_t n = (size_t)tokens * heads * head_dim;
    std::vector<float> q(n), k(n);
    rng.fill(q);
    rng.fill(k);
    std::vector<int> pos(tokens);
    for (int t = 0; t < tokens; ++t) pos[t] = 100 + t;
    rope_init(head_dim, 10000.f);
    float *d_q = to_device(q), *d_k = to_device(k);
    int* d_pos = to_device(pos);
    rope_apply(d_q, d_k, d_pos, tokens, heads, heads, head_dim, 0);
    const std::vector<float> gq = to_host(d_q, n), gk = to_host(d_k, n);
    ref::rope(q.data(), k.data(), pos.data(), tokens, heads, heads, head_dim, 10000.f);
    report("rope", std::max(ref::max_abs_diff(gq.data(), q.data(), n), ref::max_abs_diff(gk.data(), k.data(), n)), 1e-4,
           sum_of(gq));
    std::vector<float> gate(n), up(n), want(n);
    rng.fill(gate, -6.f, 6.f);
    rng.fill(up);
    float *d_g = to_device(gate), *d_u = to_device(up), *d_o;
    CUDA_CHECK(cudaMalloc(&d_o, n * sizeof(float)));
    swiglu(d_g, d_u, d_o, (int64_t)n, 0);
    const std::vector<float> got = to_host(d_o, n);
    ref::swiglu(gate.data(), up.data(), want.data(), (int64_t)n);
    report("swiglu", ref::max_abs_diff(got.data(), want.data(), n), 1e-5, sum_of(got));
    cudaFree(d_q);
    cudaFree(d_k);
    cudaFree(d_pos);
    cudaFree(d_g);
    cudaFree(d_u);
    cudaFree(d_o);
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    ref::Rng rng(1234);
    for (int threads : {64, 128, 256, 1024}) check_reductions(rng, threads, 4, 3000);
    check_rmsnorm(rng, 4, 4096);  // 1024 threads of float4
    check_rmsnorm(rng, 4, 1000);  // 250 threads of float4
    check_rmsnorm(rng, 3, 66);    // the scalar kernel
    check_softmax(rng, 4, 100);   // BLOCK_SIZE 128
    check_softmax(rng, 4, 1000);  // 256
    check_softmax(rng, 2, quick ? 2048 : 32000);  // 1024, global-memory fall-back past the LDS
    check_topk(rng, 2, 4096, 40, false);  // 256 threads
    check_topk(rng, 2, 4096, 40, true);
    check_topk(rng, 1, 10000, 40, false);  // 1024 threads
    check_attention(rng, 2, quick ? 24 : 64, 64);
    check_embedding(rng, 37, 256, 1000);
    check_rope_swiglu(rng, 8, 4, 64);
    printf("SUMMARY %s failures=%d\n", g_failures ? "FAIL" : "PASS", g_failures);
    return g_failures ? 1 : 0;
}
