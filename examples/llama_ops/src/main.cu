// main.cu - runs every operator on random inputs (fixed seed), checks it
// against the CPU reference and times it with CUDA events.
//
// Output: one line per operator,
//   OP <name> max_abs_err=<x> PASS|FAIL time_us=<t> [extra fields]
// then a summary line. Exit code 0 only when every operator passed.
//
// Usage: llama_ops_test [--quick] [--n-iter N] [--tokens T] [--heads N] [--hidden H]
//                       [--vocab V] [--seed S] [--no-nccl] [--ndev N]
// --hidden keeps the head count and sets head_dim = hidden / heads.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "llama_ops/common.cuh"
#include "llama_ops/gemm.h"
#include "llama_ops/ops.h"
#include "llama_ops/reference.h"
#include "llama_ops/utils.h"

using namespace llama_ops;

namespace {

struct Config {
    int tokens = 128;
    int hidden = 1024;
    int n_heads = 8;
    int n_kv_heads = 8;
    int head_dim = 128;
    int ffn = 2816;
    int vocab = 32000;
    int gemm_rows = 64;  // M of the GEMM checks (the CPU reference is the slow part)
    int top_k = 40;
    int n_iter = 20;
    int ndev = 8;
    bool nccl = true;
    uint64_t seed = 1234;
    float rope_theta = 10000.f;
    float eps = 1e-5f;
};

void usage(const char* prog) {
    fprintf(stderr,
            "usage: %s [--quick] [--n-iter N] [--tokens T] [--heads N] [--hidden H]\n"
            "          [--vocab V] [--seed S] [--no-nccl] [--ndev N]\n",
            prog);
}

bool parse_args(int argc, char** argv, Config& c) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next_int = [&](int& dst) {
            if (i + 1 >= argc) return false;
            dst = atoi(argv[++i]);
            return true;
        };
        if (a == "--quick") {
            c.tokens = 16;
            c.hidden = 256;
            c.n_heads = c.n_kv_heads = 4;
            c.head_dim = 64;
            c.ffn = 688;
            c.vocab = 4096;
            c.gemm_rows = 16;
            c.n_iter = 3;
        } else if (a == "--n-iter") {
            if (!next_int(c.n_iter)) return false;
        } else if (a == "--tokens") {
            if (!next_int(c.tokens)) return false;
            c.gemm_rows = std::min(c.gemm_rows, c.tokens);
        } else if (a == "--hidden") {
            if (!next_int(c.hidden)) return false;
            c.head_dim = c.hidden / c.n_heads;  // keep the head count
        } else if (a == "--heads") {  // give before --hidden
            if (!next_int(c.n_heads)) return false;
            c.n_kv_heads = c.n_heads;
            if (c.n_heads <= 0) return false;
            c.head_dim = c.hidden / c.n_heads;
        } else if (a == "--vocab") {
            if (!next_int(c.vocab)) return false;
        } else if (a == "--ndev") {
            if (!next_int(c.ndev)) return false;
        } else if (a == "--seed") {
            if (i + 1 >= argc) return false;
            c.seed = strtoull(argv[++i], nullptr, 10);
        } else if (a == "--no-nccl") {
            c.nccl = false;
        } else {
            return false;
        }
    }
    return c.tokens > 0 && c.hidden > 0 && c.vocab >= c.top_k && c.n_iter >= 0 &&
           c.hidden == c.n_heads * c.head_dim && c.head_dim % 2 == 0 &&
           c.head_dim <= kMaxHeadDim;
}

// Runs `launch` n_iter times on `stream` and returns the average in microseconds.
double time_us(cudaStream_t stream, int n_iter, const std::function<void()>& launch) {
    if (n_iter <= 0) return 0.0;
    GpuTimer timer(stream);
    launch();  // warm-up
    timer.start();
    for (int i = 0; i < n_iter; ++i) launch();
    return 1000.0 * timer.stop() / n_iter;
}

int g_failures = 0;

void report(const char* name, double err, double tol, double us, const char* extra = "") {
    const bool ok = err <= tol;  // false for NaN
    if (!ok) ++g_failures;
    printf("OP %-12s max_abs_err=%.3e %s time_us=%.2f tol=%.1e%s%s\n", name, err,
           ok ? "PASS" : "FAIL", us, tol, extra[0] ? " " : "", extra);
    fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    Config cfg;
    if (!parse_args(argc, argv, cfg)) {
        usage(argv[0]);
        return 2;
    }

    int device_count = 0;
    cudaError_t e = cudaGetDeviceCount(&device_count);
    if (e != cudaSuccess || device_count == 0) {
        fprintf(stderr, "no CUDA device available: %s\n", cudaGetErrorString(e));
        return 3;
    }
    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s (sm_%d%d, %d SMs, warpSize %d)\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount, prop.warpSize);
    printf("sizes: tokens=%d hidden=%d heads=%d head_dim=%d ffn=%d vocab=%d top_k=%d n_iter=%d\n",
           cfg.tokens, cfg.hidden, cfg.n_heads, cfg.head_dim, cfg.ffn, cfg.vocab, cfg.top_k,
           cfg.n_iter);

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, stream));

    ref::Rng rng(cfg.seed);
    const int T = cfg.tokens, H = cfg.hidden, V = cfg.vocab;

    // ---- embedding ---------------------------------------------------------
    {
        std::vector<float> table((size_t)V * H);
        rng.fill(table);
        std::vector<int> ids(T);
        for (int t = 0; t < T; ++t) ids[t] = rng.randint(0, V);
        ids[T - 1] = -1;  // padding id: zero row
        DeviceBuffer<float> d_table(table.size()), d_out((size_t)T * H);
        DeviceBuffer<int> d_ids(T);
        d_table.upload(table, stream);
        CUDA_CHECK(cudaMemcpyAsync(d_ids.get(), ids.data(), T * sizeof(int),
                                   cudaMemcpyHostToDevice, stream));
        embedding_lookup(d_ids.get(), d_table.get(), d_out.get(), T, H, V, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<float> got = d_out.download(), want((size_t)T * H);
        ref::embedding(ids.data(), table.data(), want.data(), T, H, V);
        const double us = time_us(stream, cfg.n_iter, [&] {
            embedding_lookup(d_ids.get(), d_table.get(), d_out.get(), T, H, V, stream);
        });
        report("embedding", ref::max_abs_diff(got.data(), want.data(), got.size()), 0.0, us);
    }

    // ---- rmsnorm -----------------------------------------------------------
    {
        std::vector<float> x((size_t)T * H), w(H);
        rng.fill(x, -2.f, 2.f);
        rng.fill(w, 0.5f, 1.5f);
        DeviceBuffer<float> d_x(x.size()), d_w(w.size()), d_y(x.size());
        d_x.upload(x, stream);
        d_w.upload(w, stream);
        rmsnorm(d_x.get(), d_w.get(), d_y.get(), T, H, cfg.eps, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<float> got = d_y.download(), want(x.size());
        ref::rmsnorm(x.data(), w.data(), want.data(), T, H, cfg.eps);
        const double us = time_us(stream, cfg.n_iter, [&] {
            rmsnorm(d_x.get(), d_w.get(), d_y.get(), T, H, cfg.eps, stream);
        });
        report("rmsnorm", ref::max_abs_diff(got.data(), want.data(), got.size()), 1e-4, us);
    }

    // ---- linear (cublasSgemm), linear_f16 (cublasGemmEx), gemm (row-major) --
    {
        const int M = cfg.gemm_rows, N = H, K = H;
        std::vector<float> x((size_t)M * K), w((size_t)N * K);
        rng.fill(x);
        rng.fill(w);
        DeviceBuffer<float> d_x(x.size()), d_w(w.size()), d_y((size_t)M * N);
        d_x.upload(x, stream);
        d_w.upload(w, stream);
        linear_f32(handle, d_x.get(), d_w.get(), d_y.get(), M, N, K);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<float> got = d_y.download(), want((size_t)M * N);
        ref::linear(x.data(), w.data(), want.data(), M, N, K);
        double us = time_us(stream, cfg.n_iter,
                            [&] { linear_f32(handle, d_x.get(), d_w.get(), d_y.get(), M, N, K); });
        report("linear_f32", ref::max_abs_diff(got.data(), want.data(), got.size()),
               2e-5 * K, us);

        // Half inputs: the reference uses the same rounded values.
        std::vector<__half> xh(x.size()), wh(w.size());
        for (size_t i = 0; i < x.size(); ++i) {
            xh[i] = __float2half(x[i]);
            x[i] = __half2float(xh[i]);
        }
        for (size_t i = 0; i < w.size(); ++i) {
            wh[i] = __float2half(w[i]);
            w[i] = __half2float(wh[i]);
        }
        DeviceBuffer<__half> d_xh(xh.size()), d_wh(wh.size());
        d_xh.upload(xh, stream);
        d_wh.upload(wh, stream);
        linear_f16(handle, d_xh.get(), d_wh.get(), d_y.get(), M, N, K);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        got = d_y.download();
        ref::linear(x.data(), w.data(), want.data(), M, N, K);
        us = time_us(stream, cfg.n_iter,
                     [&] { linear_f16(handle, d_xh.get(), d_wh.get(), d_y.get(), M, N, K); });
        report("linear_f16", ref::max_abs_diff(got.data(), want.data(), got.size()),
               2e-5 * K, us);

        // Row-major A[M,K] * B[K,N] with B = the weight matrix read as [K,N].
        gemm_rowmajor_f32(handle, d_x.get(), d_w.get(), d_y.get(), M, N, K);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        got = d_y.download();
        // d_x/d_w still hold the unrounded values; the reference must use them.
        x = d_x.download();
        w = d_w.download();
        ref::gemm_rowmajor(x.data(), w.data(), want.data(), M, N, K);
        us = time_us(stream, cfg.n_iter, [&] {
            gemm_rowmajor_f32(handle, d_x.get(), d_w.get(), d_y.get(), M, N, K);
        });
        report("gemm_rm_f32", ref::max_abs_diff(got.data(), want.data(), got.size()),
               2e-5 * K, us);
    }

    // ---- rope ----------------------------------------------------------------
    {
        const int nq = cfg.n_heads, nk = cfg.n_kv_heads, D = cfg.head_dim;
        std::vector<float> q((size_t)T * nq * D), k((size_t)T * nk * D);
        rng.fill(q);
        rng.fill(k);
        std::vector<int> pos(T);
        for (int t = 0; t < T; ++t) pos[t] = 1000 + t;  // a decode step deep in the context
        rope_init(D, cfg.rope_theta);
        DeviceBuffer<float> d_q(q.size()), d_k(k.size());
        DeviceBuffer<int> d_pos(T);
        d_q.upload(q, stream);
        d_k.upload(k, stream);
        CUDA_CHECK(cudaMemcpyAsync(d_pos.get(), pos.data(), T * sizeof(int),
                                   cudaMemcpyHostToDevice, stream));
        rope_apply(d_q.get(), d_k.get(), d_pos.get(), T, nq, nk, D, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<float> got_q = d_q.download(), got_k = d_k.download();
        ref::rope(q.data(), k.data(), pos.data(), T, nq, nk, D, cfg.rope_theta);
        const double err = std::max(ref::max_abs_diff(got_q.data(), q.data(), q.size()),
                                    ref::max_abs_diff(got_k.data(), k.data(), k.size()));
        // In place: the timed runs keep rotating the same buffers, which is fine.
        const double us = time_us(stream, cfg.n_iter, [&] {
            rope_apply(d_q.get(), d_k.get(), d_pos.get(), T, nq, nk, D, stream);
        });
        report("rope", err, 1e-4, us);
    }

    // ---- softmax + topk over the logits ------------------------------------
    {
        std::vector<float> logits((size_t)T * V);
        rng.fill(logits, -8.f, 8.f);
        const float inv_temperature = 1.0f / 0.8f;
        DeviceBuffer<float> d_logits(logits.size()), d_probs(logits.size());
        d_logits.upload(logits, stream);
        softmax(d_logits.get(), d_probs.get(), T, V, inv_temperature, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<float> got = d_probs.download(), want(logits.size());
        ref::softmax(logits.data(), want.data(), T, V, inv_temperature);
        double us = time_us(stream, cfg.n_iter, [&] {
            softmax(d_logits.get(), d_probs.get(), T, V, inv_temperature, stream);
        });
        report("softmax", ref::max_abs_diff(got.data(), want.data(), got.size()), 1e-6, us);

        const int K = cfg.top_k;
        DeviceBuffer<float> d_vals((size_t)T * K);
        DeviceBuffer<int> d_idx((size_t)T * K);
        topk_rows(d_logits.get(), d_vals.get(), d_idx.get(), T, V, K, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<float> got_vals = d_vals.download(), want_vals((size_t)T * K);
        std::vector<int> got_idx = d_idx.download(), want_idx((size_t)T * K);
        ref::topk_rows(logits.data(), want_vals.data(), want_idx.data(), T, V, K);
        int idx_mismatch = 0;
        for (size_t i = 0; i < got_idx.size(); ++i) idx_mismatch += got_idx[i] != want_idx[i];
        double err = ref::max_abs_diff(got_vals.data(), want_vals.data(), got_vals.size());
        if (idx_mismatch) err = INFINITY;
        us = time_us(stream, cfg.n_iter, [&] {
            topk_rows(d_logits.get(), d_vals.get(), d_idx.get(), T, V, K, stream);
        });
        char extra[64];
        snprintf(extra, sizeof extra, "k=%d idx_mismatch=%d", K, idx_mismatch);
        report("topk", err, 0.0, us, extra);

        // Quantised logits: many equal values, so the k-th value is tied and
        // the lowest indices must win, as in the reference.
        for (float& x : logits) x = std::round(x * 4.f) / 4.f;
        d_logits.upload(logits, stream);
        topk_rows(d_logits.get(), d_vals.get(), d_idx.get(), T, V, K, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        got_vals = d_vals.download();
        got_idx = d_idx.download();
        ref::topk_rows(logits.data(), want_vals.data(), want_idx.data(), T, V, K);
        idx_mismatch = 0;
        for (size_t i = 0; i < got_idx.size(); ++i) idx_mismatch += got_idx[i] != want_idx[i];
        err = ref::max_abs_diff(got_vals.data(), want_vals.data(), got_vals.size());
        if (idx_mismatch) err = INFINITY;
        us = time_us(stream, cfg.n_iter, [&] {
            topk_rows(d_logits.get(), d_vals.get(), d_idx.get(), T, V, K, stream);
        });
        snprintf(extra, sizeof extra, "k=%d idx_mismatch=%d", K, idx_mismatch);
        report("topk_ties", err, 0.0, us, extra);
    }

    // ---- attention -----------------------------------------------------------
    {
        const int B = 1, NH = cfg.n_heads, S = T, D = cfg.head_dim;
        const size_t n = (size_t)B * NH * S * D;
        std::vector<float> q(n), k(n), v(n);
        rng.fill(q);
        rng.fill(k);
        rng.fill(v);
        DeviceBuffer<float> d_q(n), d_k(n), d_v(n), d_o(n);
        d_q.upload(q, stream);
        d_k.upload(k, stream);
        d_v.upload(v, stream);
        if (!attention_causal(d_q.get(), d_k.get(), d_v.get(), d_o.get(), B, NH, S, D, stream)) {
            report("attention", INFINITY, 1e-4, 0.0, "seq_too_long");
        } else {
            CUDA_CHECK(cudaStreamSynchronize(stream));
            std::vector<float> got = d_o.download(), want(n);
            ref::attention_causal(q.data(), k.data(), v.data(), want.data(), B, NH, S, D);
            const double us = time_us(stream, cfg.n_iter, [&] {
                attention_causal(d_q.get(), d_k.get(), d_v.get(), d_o.get(), B, NH, S, D, stream);
            });
            report("attention", ref::max_abs_diff(got.data(), want.data(), n), 1e-4, us);
        }
    }

    // ---- swiglu, silu --------------------------------------------------------
    {
        const int64_t n = (int64_t)T * cfg.ffn;
        std::vector<float> gate(n), up(n);
        rng.fill(gate, -6.f, 6.f);
        rng.fill(up);
        DeviceBuffer<float> d_gate(n), d_up(n), d_out(n);
        d_gate.upload(gate, stream);
        d_up.upload(up, stream);
        swiglu(d_gate.get(), d_up.get(), d_out.get(), n, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        std::vector<float> got = d_out.download(), want(n);
        ref::swiglu(gate.data(), up.data(), want.data(), n);
        double us = time_us(stream, cfg.n_iter,
                            [&] { swiglu(d_gate.get(), d_up.get(), d_out.get(), n, stream); });
        report("swiglu", ref::max_abs_diff(got.data(), want.data(), n), 1e-5, us);

        // silu(x) == swiglu(x, 1)
        std::vector<float> ones(n, 1.f);
        ref::swiglu(gate.data(), ones.data(), want.data(), n);
        silu_inplace(d_gate.get(), n, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        got = d_gate.download();
        us = time_us(stream, cfg.n_iter, [&] {
            // Re-apply on the scratch output so the checked buffer stays intact.
            silu_inplace(d_out.get(), n, stream);
        });
        report("silu", ref::max_abs_diff(got.data(), want.data(), n), 1e-5, us);
    }

    // ---- NCCL all-reduce -----------------------------------------------------
    if (cfg.nccl) {
        const size_t count = (size_t)T * H;
        AllReduceResult r = allreduce_selftest(count, cfg.ndev, cfg.n_iter);
        char extra[64];
        snprintf(extra, sizeof extra, "ndev=%d count=%zu", r.ndev, count);
        report("allreduce", r.max_abs_err, 0.0, r.avg_us, extra);
    }

    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaStreamDestroy(stream));
    printf("SUMMARY %s failures=%d\n", g_failures ? "FAIL" : "PASS", g_failures);
    return g_failures ? 1 : 0;
}
