// reference.cpp - CPU reference implementations (plain C++, no CUDA).
// Written for clarity; accumulations are in double where it is cheap.
#include "llama_ops/reference.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace llama_ops {
namespace ref {

void linear(const float* x, const float* w, float* y, int M, int N, int K) {
    for (int m = 0; m < M; ++m)
        for (int n = 0; n < N; ++n) {
            const float* xr = x + (size_t)m * K;
            const float* wr = w + (size_t)n * K;
            // Four partial sums: keeps the loop fast without -ffast-math.
            float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
            int k = 0;
            for (; k + 4 <= K; k += 4) {
                s0 += xr[k] * wr[k];
                s1 += xr[k + 1] * wr[k + 1];
                s2 += xr[k + 2] * wr[k + 2];
                s3 += xr[k + 3] * wr[k + 3];
            }
            for (; k < K; ++k) s0 += xr[k] * wr[k];
            y[(size_t)m * N + n] = (s0 + s1) + (s2 + s3);
        }
}

void gemm_rowmajor(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int m = 0; m < M; ++m) {
        float* c = C + (size_t)m * N;
        std::fill(c, c + N, 0.f);
        for (int k = 0; k < K; ++k) {
            const float a = A[(size_t)m * K + k];
            const float* b = B + (size_t)k * N;
            for (int n = 0; n < N; ++n) c[n] += a * b[n];
        }
    }
}

void rmsnorm(const float* x, const float* weight, float* y, int rows, int hidden, float eps) {
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + (size_t)r * hidden;
        double ss = 0.0;
        for (int i = 0; i < hidden; ++i) ss += (double)xr[i] * xr[i];
        const double rstd = 1.0 / std::sqrt(ss / hidden + eps);
        for (int i = 0; i < hidden; ++i)
            y[(size_t)r * hidden + i] = (float)(xr[i] * rstd * weight[i]);
    }
}

void rope(float* q, float* k, const int* positions, int tokens, int n_heads, int n_kv_heads,
          int head_dim, float theta) {
    const int half = head_dim / 2;
    for (int t = 0; t < tokens; ++t)
        for (int h = 0; h < n_heads + n_kv_heads; ++h) {
            float* base = h < n_heads ? q + ((size_t)t * n_heads + h) * head_dim
                                      : k + ((size_t)t * n_kv_heads + (h - n_heads)) * head_dim;
            for (int i = 0; i < half; ++i) {
                // Same float rounding of the angle as the GPU, exact sin/cos.
                const float inv_freq = (float)(1.0 / std::pow((double)theta, (2.0 * i) / head_dim));
                const float angle = (float)positions[t] * inv_freq;
                const double c = std::cos((double)angle), s = std::sin((double)angle);
                const double x0 = base[i], x1 = base[i + half];
                base[i] = (float)(x0 * c - x1 * s);
                base[i + half] = (float)(x1 * c + x0 * s);
            }
        }
}

void softmax(const float* x, float* y, int rows, int cols, float scale) {
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + (size_t)r * cols;
        float* yr = y + (size_t)r * cols;
        double mx = -INFINITY;
        for (int i = 0; i < cols; ++i) mx = std::max(mx, (double)xr[i] * scale);
        double sum = 0.0;
        for (int i = 0; i < cols; ++i) sum += std::exp((double)xr[i] * scale - mx);
        for (int i = 0; i < cols; ++i) yr[i] = (float)(std::exp((double)xr[i] * scale - mx) / sum);
    }
}

void attention_causal(const float* q, const float* k, const float* v, float* out, int batch,
                      int heads, int seq, int head_dim) {
    const double scale = 1.0 / std::sqrt((double)head_dim);
    std::vector<double> p(seq);
    for (int bh = 0; bh < batch * heads; ++bh) {
        const size_t base = (size_t)bh * seq * head_dim;
        for (int i = 0; i < seq; ++i) {
            double mx = -INFINITY;
            for (int j = 0; j <= i; ++j) {
                double dot = 0.0;
                for (int d = 0; d < head_dim; ++d)
                    dot += (double)q[base + (size_t)i * head_dim + d] * k[base + (size_t)j * head_dim + d];
                p[j] = dot * scale;
                mx = std::max(mx, p[j]);
            }
            double sum = 0.0;
            for (int j = 0; j <= i; ++j) sum += (p[j] = std::exp(p[j] - mx));
            for (int d = 0; d < head_dim; ++d) {
                double acc = 0.0;
                for (int j = 0; j <= i; ++j) acc += p[j] * v[base + (size_t)j * head_dim + d];
                out[base + (size_t)i * head_dim + d] = (float)(acc / sum);
            }
        }
    }
}

void topk_rows(const float* logits, float* vals, int* idx, int rows, int cols, int k) {
    std::vector<int> order(cols);
    for (int r = 0; r < rows; ++r) {
        const float* row = logits + (size_t)r * cols;
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
            return row[a] > row[b] || (row[a] == row[b] && a < b);
        });
        for (int i = 0; i < k; ++i) {
            vals[(size_t)r * k + i] = row[order[i]];
            idx[(size_t)r * k + i] = order[i];
        }
    }
}

void embedding(const int* ids, const float* table, float* out, int tokens, int hidden,
               int vocab) {
    for (int t = 0; t < tokens; ++t)
        for (int i = 0; i < hidden; ++i)
            out[(size_t)t * hidden + i] =
                (ids[t] >= 0 && ids[t] < vocab) ? table[(size_t)ids[t] * hidden + i] : 0.f;
}

void swiglu(const float* gate, const float* up, float* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        const double g = gate[i];
        out[i] = (float)(g / (1.0 + std::exp(-g)) * up[i]);
    }
}

double max_abs_diff(const float* a, const float* b, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double d = std::fabs((double)a[i] - (double)b[i]);
        if (std::isnan(d)) return d;  // a NaN anywhere fails the check
        m = std::max(m, d);
    }
    return m;
}

float Rng::uniform(float lo, float hi) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint32_t bits = (uint32_t)(state_ >> 40);  // top 24 bits
    return lo + (hi - lo) * ((float)bits / 16777216.0f);
}

int Rng::randint(int lo, int hi) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((state_ >> 33) % (uint64_t)(hi - lo));
}

void Rng::fill(std::vector<float>& v, float lo, float hi) {
    for (float& x : v) x = uniform(lo, hi);
}

}  // namespace ref
}  // namespace llama_ops
