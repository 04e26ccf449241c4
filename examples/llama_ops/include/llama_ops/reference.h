// reference.h - straightforward CPU versions of the operators, used by the
// test driver to check the GPU results. Plain C++: no CUDA in here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace llama_ops {
namespace ref {

void linear(const float* x, const float* w, float* y, int M, int N, int K);
void gemm_rowmajor(const float* A, const float* B, float* C, int M, int N, int K);
void rmsnorm(const float* x, const float* weight, float* y, int rows, int hidden, float eps);
void rope(float* q, float* k, const int* positions, int tokens, int n_heads, int n_kv_heads,
          int head_dim, float theta);
void softmax(const float* x, float* y, int rows, int cols, float scale);
void attention_causal(const float* q, const float* k, const float* v, float* out, int batch,
                      int heads, int seq, int head_dim);
void topk_rows(const float* logits, float* vals, int* idx, int rows, int cols, int k);
void embedding(const int* ids, const float* table, float* out, int tokens, int hidden,
               int vocab);
void swiglu(const float* gate, const float* up, float* out, int64_t n);

double max_abs_diff(const float* a, const float* b, size_t n);

// Deterministic uniform floats in [lo, hi) from a 64-bit LCG.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    float uniform(float lo = -1.f, float hi = 1.f);
    int randint(int lo, int hi);  // in [lo, hi)
    void fill(std::vector<float>& v, float lo = -1.f, float hi = 1.f);

private:
    uint64_t state_;
};

}  // namespace ref
}  // namespace llama_ops
