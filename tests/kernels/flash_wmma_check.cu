// Checks llama_ops' FlashAttention forward and backward (the WMMA kernels when the library is built
// with LLAMA_OPS_WMMA=1, else the scalar ones) and the decode kernel against a float64 CPU
// reference, on small fp16 shapes: tail tiles, causal, grouped-query attention, seq_q != seq_k,
// both head dimensions. Written
// in CUDA like the library: tests/e2e/test_flash_wmma.sh runs it on the wave64 CPU runtime as
// CUDA at warp 32, and migrated to HIP (rocWMMA) at wave 64.
//
// Output: "OP <name> <PASS|FAIL> err=<max abs error> tol=<tolerance>" per case, "PATH wmma|scalar";
// exit 1 on a failure.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "llama_ops/flash_attention.h"

namespace {

int g_failures = 0;

#define CHECK_CUDA(call)                                                           \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)

unsigned g_seed = 12345u;
float next_uniform() {  // in [-1, 1)
  g_seed = g_seed * 1664525u + 1013904223u;
  return (float)((g_seed >> 8) & 0xffffff) / 8388608.f - 1.f;
}

std::vector<__half> random_half(size_t n, float amp) {
  std::vector<__half> v(n);
  for (auto& x : v) x = __float2half(amp * next_uniform());
  return v;
}

std::vector<double> to_double(const std::vector<__half>& v) {
  std::vector<double> d(v.size());
  for (size_t i = 0; i < v.size(); ++i) d[i] = (double)__half2float(v[i]);
  return d;
}

__half* upload(const std::vector<__half>& h) {
  __half* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(__half)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(__half), cudaMemcpyHostToDevice));
  return d;
}

llama_ops::AttnTensor bhsd(void* data, int heads, int seq, int d) {
  llama_ops::AttnTensor t;
  t.data = data;
  t.stride_row = d;
  t.stride_head = (long long)seq * d;
  t.stride_batch = (long long)heads * seq * d;
  return t;
}

// out[b][h][i][:] (and lse) in float64 for queries [B, H, Sq, D], keys/values [B, KVH, Sk, D].
void reference(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v, int B, int H,
               int KVH, int Sq, int Sk, int D, bool causal, std::vector<double>& o, std::vector<double>& lse) {
  const double scale = 1.0 / std::sqrt((double)D);
  o.assign((size_t)B * H * Sq * D, 0.0);
  lse.assign((size_t)B * H * Sq, 0.0);
  std::vector<double> s(Sk);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const int hk = h / (H / KVH);
      for (int i = 0; i < Sq; ++i) {
        const double* qr = &q[(((size_t)b * H + h) * Sq + i) * D];
        double mx = -INFINITY;
        for (int j = 0; j < Sk; ++j) {
          const double* kr = &k[(((size_t)b * KVH + hk) * Sk + j) * D];
          double acc = 0;
          for (int d = 0; d < D; ++d) acc += qr[d] * kr[d];
          s[j] = (causal && j > i) ? -INFINITY : acc * scale;
          mx = std::fmax(mx, s[j]);
        }
        double sum = 0;
        for (int j = 0; j < Sk; ++j) sum += s[j] == -INFINITY ? 0.0 : std::exp(s[j] - mx);
        double* orow = &o[(((size_t)b * H + h) * Sq + i) * D];
        for (int j = 0; j < Sk; ++j) {
          if (s[j] == -INFINITY) continue;
          const double p = std::exp(s[j] - mx) / sum;
          const double* vr = &v[(((size_t)b * KVH + hk) * Sk + j) * D];
          for (int d = 0; d < D; ++d) orow[d] += p * vr[d];
        }
        lse[((size_t)b * H + h) * Sq + i] = mx + std::log(sum);
      }
    }
}

// Gradients dq [B, H, Sq, D], dk, dv [B, KVH, Sk, D] of sum(o * dout) in float64 (the same
// attention as reference(); dk and dv of a kv head sum over the query heads of its group).
void reference_backward(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                        const std::vector<double>& dout, int B, int H, int KVH, int Sq, int Sk, int D, bool causal,
                        std::vector<double>& dq, std::vector<double>& dk, std::vector<double>& dv) {
  const double scale = 1.0 / std::sqrt((double)D);
  dq.assign((size_t)B * H * Sq * D, 0.0);
  dk.assign((size_t)B * KVH * Sk * D, 0.0);
  dv.assign((size_t)B * KVH * Sk * D, 0.0);
  std::vector<double> pr(Sk), dp(Sk);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      const int hk = h / (H / KVH);
      for (int i = 0; i < Sq; ++i) {
        const size_t qi = (((size_t)b * H + h) * Sq + i) * D;
        double mx = -INFINITY;
        for (int j = 0; j < Sk; ++j) {
          const size_t kj = (((size_t)b * KVH + hk) * Sk + j) * D;
          double acc = 0, g = 0;
          for (int d = 0; d < D; ++d) {
            acc += q[qi + d] * k[kj + d];
            g += dout[qi + d] * v[kj + d];
          }
          pr[j] = (causal && j > i) ? -INFINITY : acc * scale;
          dp[j] = g;
          mx = std::fmax(mx, pr[j]);
        }
        double sum = 0;
        for (int j = 0; j < Sk; ++j) sum += pr[j] == -INFINITY ? 0.0 : std::exp(pr[j] - mx);
        double delta = 0;
        for (int j = 0; j < Sk; ++j) {
          pr[j] = pr[j] == -INFINITY ? 0.0 : std::exp(pr[j] - mx) / sum;
          delta += pr[j] * dp[j];
        }
        for (int j = 0; j < Sk; ++j) {
          if (pr[j] == 0.0) continue;
          const size_t kj = (((size_t)b * KVH + hk) * Sk + j) * D;
          const double ds = pr[j] * (dp[j] - delta);
          for (int d = 0; d < D; ++d) {
            dq[qi + d] += scale * ds * k[kj + d];
            dk[kj + d] += scale * ds * q[qi + d];
            dv[kj + d] += pr[j] * dout[qi + d];
          }
        }
      }
    }
}

void report(const char* name, double err, double tol) {
  const bool ok = err <= tol;  // NaN fails
  if (!ok) ++g_failures;
  std::printf("OP %-28s %s err=%.2e tol=%.0e\n", name, ok ? "PASS" : "FAIL", err, tol);
}

void forward_case(const char* name, int B, int H, int KVH, int S, int D, bool causal) {
  auto hq = random_half((size_t)B * H * S * D, 2.f);
  auto hk = random_half((size_t)B * KVH * S * D, 2.f);
  auto hv = random_half((size_t)B * KVH * S * D, 1.f);
  __half *q = upload(hq), *k = upload(hk), *v = upload(hv), *o = nullptr;
  float* lse = nullptr;
  const size_t n = (size_t)B * H * S * D;
  CHECK_CUDA(cudaMalloc(&o, n * sizeof(__half)));
  CHECK_CUDA(cudaMemset(o, 0xff, n * sizeof(__half)));  // NaN: every element must be written
  CHECK_CUDA(cudaMalloc(&lse, (size_t)B * H * S * sizeof(float)));
  llama_ops::FlashFwdParams p;
  p.q = bhsd(q, H, S, D);
  p.k = bhsd(k, KVH, S, D);
  p.v = bhsd(v, KVH, S, D);
  p.o = bhsd(o, H, S, D);
  p.lse = lse;
  p.batch = B;
  p.heads = H;
  p.kv_heads = KVH;
  p.seq_q = p.seq_k = S;
  p.scale = 1.f / std::sqrt((float)D);
  p.causal = causal;
  if (const char* why = llama_ops::flash_attention_forward(p, D, llama_ops::Float16Kind::f16, 0)) {
    std::printf("OP %-28s FAIL refused: %s\n", name, why);
    ++g_failures;
    return;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__half> ho(n);
  std::vector<float> hl((size_t)B * H * S);
  CHECK_CUDA(cudaMemcpy(ho.data(), o, n * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hl.data(), lse, hl.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<double> ro, rl;
  reference(to_double(hq), to_double(hk), to_double(hv), B, H, KVH, S, S, D, causal, ro, rl);
  double eo = 0, el = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = std::fabs((double)__half2float(ho[i]) - ro[i]);
    eo = (d > eo || d != d) ? d : eo;
  }
  for (size_t i = 0; i < hl.size(); ++i) {
    const double d = std::fabs((double)hl[i] - rl[i]);
    el = (d > el || d != d) ? d : el;
  }
  char full[96];
  std::snprintf(full, sizeof full, "%s.o", name);
  report(full, eo, 2e-3);
  std::snprintf(full, sizeof full, "%s.lse", name);
  report(full, el, 1e-4);
  cudaFree(q);
  cudaFree(k);
  cudaFree(v);
  cudaFree(o);
  cudaFree(lse);
}

// max |got - ref| relative to max |ref| (NaN counts as an error of infinity).
double rel_err(const std::vector<__half>& got, const std::vector<double>& ref) {
  double e = 0, m = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double d = std::fabs((double)__half2float(got[i]) - ref[i]);
    e = (d > e || d != d) ? d : e;
    m = std::fmax(m, std::fabs(ref[i]));
  }
  return e / (m > 0 ? m : 1.0);
}

// Backward: the library's forward (for o and lse), then its backward, against float64 gradients.
void backward_case(const char* name, int B, int H, int KVH, int Sq, int Sk, int D, bool causal) {
  auto hq = random_half((size_t)B * H * Sq * D, 2.f);
  auto hk = random_half((size_t)B * KVH * Sk * D, 2.f);
  auto hv = random_half((size_t)B * KVH * Sk * D, 1.f);
  auto hd = random_half((size_t)B * H * Sq * D, 1.f);
  const size_t nq = hq.size(), nk = hk.size(), rows = (size_t)B * H * Sq;
  __half *q = upload(hq), *k = upload(hk), *v = upload(hv), *dout = upload(hd);
  __half *o = nullptr, *dq = nullptr, *dk = nullptr, *dv = nullptr;
  float *lse = nullptr, *delta = nullptr;
  CHECK_CUDA(cudaMalloc(&o, nq * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dq, nq * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dk, nk * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dv, nk * sizeof(__half)));
  CHECK_CUDA(cudaMemset(dq, 0xff, nq * sizeof(__half)));  // NaN: every element must be written
  CHECK_CUDA(cudaMemset(dk, 0xff, nk * sizeof(__half)));
  CHECK_CUDA(cudaMemset(dv, 0xff, nk * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&lse, rows * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&delta, rows * sizeof(float)));
  llama_ops::FlashFwdParams f;
  f.q = bhsd(q, H, Sq, D);
  f.k = bhsd(k, KVH, Sk, D);
  f.v = bhsd(v, KVH, Sk, D);
  f.o = bhsd(o, H, Sq, D);
  f.lse = lse;
  f.batch = B;
  f.heads = H;
  f.kv_heads = KVH;
  f.seq_q = Sq;
  f.seq_k = Sk;
  f.scale = 1.f / std::sqrt((float)D);
  f.causal = causal;
  llama_ops::FlashBwdParams p;
  p.q = f.q;
  p.k = f.k;
  p.v = f.v;
  p.o = f.o;
  p.dout = bhsd(dout, H, Sq, D);
  p.dq = bhsd(dq, H, Sq, D);
  p.dk = bhsd(dk, KVH, Sk, D);
  p.dv = bhsd(dv, KVH, Sk, D);
  p.lse = lse;
  p.delta = delta;
  p.batch = B;
  p.heads = H;
  p.kv_heads = KVH;
  p.seq_q = Sq;
  p.seq_k = Sk;
  p.scale = f.scale;
  p.causal = causal;
  const char* why = llama_ops::flash_attention_forward(f, D, llama_ops::Float16Kind::f16, 0);
  if (!why) why = llama_ops::flash_attention_backward(p, D, llama_ops::Float16Kind::f16, 0);
  if (why) {
    std::printf("OP %-28s FAIL refused: %s\n", name, why);
    ++g_failures;
    return;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__half> gq(nq), gk(nk), gv(nk);
  CHECK_CUDA(cudaMemcpy(gq.data(), dq, nq * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(gk.data(), dk, nk * sizeof(__half), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(gv.data(), dv, nk * sizeof(__half), cudaMemcpyDeviceToHost));
  std::vector<double> rq, rk, rv;
  reference_backward(to_double(hq), to_double(hk), to_double(hv), to_double(hd), B, H, KVH, Sq, Sk, D, causal, rq, rk,
                     rv);
  // Relative to the largest gradient: P and dS are rounded to 16 bits before their products (as
  // in FlashAttention-2); measured 3e-4 .. 6e-4 for fp16.
  char full[96];
  std::snprintf(full, sizeof full, "%s.dq", name);
  report(full, rel_err(gq, rq), 3e-3);
  std::snprintf(full, sizeof full, "%s.dk", name);
  report(full, rel_err(gk, rk), 3e-3);
  std::snprintf(full, sizeof full, "%s.dv", name);
  report(full, rel_err(gv, rv), 3e-3);
  for (void* ptr :
       {(void*)q, (void*)k, (void*)v, (void*)dout, (void*)o, (void*)dq, (void*)dk, (void*)dv, (void*)lse, (void*)delta})
    cudaFree(ptr);
}

void decode_case(const char* name, int B, int H, int KVH, int L, int D, int split_tiles = 0) {
  auto hq = random_half((size_t)B * H * D, 2.f);
  auto hk = random_half((size_t)B * KVH * L * D, 2.f);
  auto hv = random_half((size_t)B * KVH * L * D, 1.f);
  __half *q = upload(hq), *k = upload(hk), *v = upload(hv), *o = nullptr;
  float* work = nullptr;
  const size_t n = (size_t)B * H * D;
  CHECK_CUDA(cudaMalloc(&o, n * sizeof(__half)));
  CHECK_CUDA(cudaMemset(o, 0xff, n * sizeof(__half)));
  const long long wn = llama_ops::flash_decode_workspace_floats(B, H, L, D);
  CHECK_CUDA(cudaMalloc(&work, (size_t)wn * sizeof(float)));
  llama_ops::FlashDecodeParams p;
  p.q = bhsd(q, H, 1, D);
  p.k = bhsd(k, KVH, L, D);
  p.v = bhsd(v, KVH, L, D);
  p.o = bhsd(o, H, 1, D);
  p.work = work;
  p.batch = B;
  p.heads = H;
  p.kv_heads = KVH;
  p.seq_k = L;
  p.scale = 1.f / std::sqrt((float)D);
  p.split_tiles = split_tiles;
  if (const char* why = llama_ops::flash_attention_decode(p, D, llama_ops::Float16Kind::f16, 0)) {
    std::printf("OP %-28s FAIL refused: %s\n", name, why);
    ++g_failures;
    return;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__half> ho(n);
  CHECK_CUDA(cudaMemcpy(ho.data(), o, n * sizeof(__half), cudaMemcpyDeviceToHost));
  // The last query row of a causal prefill of length L is the decode step: reuse the reference
  // with one query row at the end (non-causal over all L keys).
  std::vector<double> ro, rl;
  reference(to_double(hq), to_double(hk), to_double(hv), B, H, KVH, 1, L, D, false, ro, rl);
  double eo = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = std::fabs((double)__half2float(ho[i]) - ro[i]);
    eo = (d > eo || d != d) ? d : eo;
  }
  report(name, eo, 2e-3);
  cudaFree(q);
  cudaFree(k);
  cudaFree(v);
  cudaFree(o);
  cudaFree(work);
}

// Decode over a paged cache: a pool of pages [pages, page_size, KVH, D] (vLLM's layout) in a
// shuffled order, a block table per batch row, and a different length per batch row (seq_lens).
void decode_paged_case(const char* name, int B, int H, int KVH, int L, int D, int page_size, int split_tiles = 0) {
  const int max_pages = (L + page_size - 1) / page_size, pages = B * max_pages + 3;
  std::vector<int> lens(B), table((size_t)B * max_pages);
  for (int b = 0; b < B; ++b) lens[b] = b == 0 ? L : 1 + (L * (b + 1) / (B + 1));
  std::vector<int> order(pages);
  for (int i = 0; i < pages; ++i) order[i] = i;
  for (int i = pages - 1; i > 0; --i) {  // a fixed shuffle
    const int j = (int)((next_uniform() + 1.f) * 0.5f * (float)(i + 1)) % (i + 1);
    std::swap(order[i], order[j]);
  }
  for (size_t i = 0; i < table.size(); ++i) table[i] = order[i];
  auto hq = random_half((size_t)B * H * D, 2.f);
  auto pk = random_half((size_t)pages * page_size * KVH * D, 2.f);
  auto pv = random_half((size_t)pages * page_size * KVH * D, 1.f);
  __half *q = upload(hq), *k = upload(pk), *v = upload(pv), *o = nullptr;
  int *dtable = nullptr, *dlens = nullptr;
  float* work = nullptr;
  const size_t n = (size_t)B * H * D;
  CHECK_CUDA(cudaMalloc(&o, n * sizeof(__half)));
  CHECK_CUDA(cudaMemset(o, 0xff, n * sizeof(__half)));
  CHECK_CUDA(cudaMalloc(&dtable, table.size() * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dtable, table.data(), table.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMalloc(&dlens, B * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(dlens, lens.data(), B * sizeof(int), cudaMemcpyHostToDevice));
  const long long wn = llama_ops::flash_decode_workspace_floats(B, H, L, D);
  CHECK_CUDA(cudaMalloc(&work, (size_t)wn * sizeof(float)));
  llama_ops::FlashDecodeParams p;
  p.q = bhsd(q, H, 1, D);
  for (llama_ops::AttnTensor* t : {&p.k, &p.v}) {
    t->stride_batch = (long long)page_size * KVH * D;  // between pages
    t->stride_head = D;
    t->stride_row = (long long)KVH * D;
  }
  p.k.data = k;
  p.v.data = v;
  p.o = bhsd(o, H, 1, D);
  p.work = work;
  p.batch = B;
  p.heads = H;
  p.kv_heads = KVH;
  p.seq_k = L;
  p.scale = 1.f / std::sqrt((float)D);
  p.block_table = dtable;
  p.page_size = page_size;
  p.max_pages = max_pages;
  p.seq_lens = dlens;
  p.split_tiles = split_tiles;
  if (const char* why = llama_ops::flash_attention_decode(p, D, llama_ops::Float16Kind::f16, 0)) {
    std::printf("OP %-28s FAIL refused: %s\n", name, why);
    ++g_failures;
    return;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__half> ho(n);
  CHECK_CUDA(cudaMemcpy(ho.data(), o, n * sizeof(__half), cudaMemcpyDeviceToHost));
  // Per batch row: gather its keys and values from the pages, then the reference over lens[b].
  double eo = 0;
  for (int b = 0; b < B; ++b) {
    std::vector<__half> gk((size_t)KVH * lens[b] * D), gv(gk.size()),
        gq(hq.begin() + (size_t)b * H * D, hq.begin() + (size_t)(b + 1) * H * D);
    for (int h = 0; h < KVH; ++h)
      for (int j = 0; j < lens[b]; ++j)
        for (int d = 0; d < D; ++d) {
          const size_t src =
              (((size_t)table[(size_t)b * max_pages + j / page_size] * page_size + j % page_size) * KVH + h) * D + d;
          gk[((size_t)h * lens[b] + j) * D + d] = pk[src];
          gv[((size_t)h * lens[b] + j) * D + d] = pv[src];
        }
    std::vector<double> ro, rl;
    reference(to_double(gq), to_double(gk), to_double(gv), 1, H, KVH, 1, lens[b], D, false, ro, rl);
    for (size_t i = 0; i < ro.size(); ++i) {
      const double d = std::fabs((double)__half2float(ho[(size_t)b * H * D + i]) - ro[i]);
      eo = (d > eo || d != d) ? d : eo;
    }
  }
  report(name, eo, 2e-3);
  for (void* ptr : {(void*)q, (void*)k, (void*)v, (void*)o, (void*)dtable, (void*)dlens, (void*)work}) cudaFree(ptr);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  int dev = 0, warp = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev));
  std::printf("PATH %s WARP %d\n", llama_ops::flash_attention_wmma_built() ? "wmma" : "scalar", warp);
  forward_case("fwd_d64_s70", 1, 2, 2, 70, 64, false);
  forward_case("fwd_d64_s70_causal_gqa", 1, 4, 2, 70, 64, true);
  if (!quick) {
    forward_case("fwd_d128_s37_causal", 2, 1, 1, 37, 128, true);
    forward_case("fwd_d64_s150_causal", 1, 1, 1, 150, 64, true);
  }
  backward_case("bwd_d64_s70", 1, 2, 2, 70, 70, 64, false);
  backward_case("bwd_d64_s70_causal_gqa", 1, 4, 2, 70, 70, 64, true);
  if (!quick) {
    backward_case("bwd_d128_s37_causal", 2, 1, 1, 37, 37, 128, true);
    backward_case("bwd_d64_sq50_sk90", 1, 2, 1, 50, 90, 64, false);
    backward_case("bwd_d128_s100_gqa", 1, 2, 1, 100, 100, 128, false);
    backward_case("bwd_d64_sq40_sk100_causal", 1, 2, 2, 40, 100, 64, true);  // keys no query sees
    backward_case("bwd_d64_sq100_sk40_causal_gqa", 1, 4, 1, 100, 40, 64, true);
  }
  if (llama_ops::flash_attention_wmma_built()) {  // the scalar kernels, forced at run time
    llama_ops::flash_attention_use_wmma(false);
    backward_case("bwd_d64_s70_causal_gqa.scalar", 1, 4, 2, 70, 70, 64, true);
    if (!quick) forward_case("fwd_d64_s70_causal_gqa.scalar", 1, 4, 2, 70, 64, true);
    llama_ops::flash_attention_use_wmma(true);
  }
  decode_case("decode_d64_l300_gqa", 1, 4, 2, 300, 64);
  decode_case("decode_d64_l130_g3", 1, 6, 2, 130, 64);  // a group that does not divide the slots
  if (!quick) {
    decode_case("decode_d128_l70", 2, 2, 2, 70, 128);
    decode_case("decode_d128_l200_g4", 2, 8, 2, 200, 128);
  }
  // Splits of several 64-key tiles (the online softmax across tiles; a short last split).
  decode_case("decode_d64_l300_gqa_t2", 1, 4, 2, 300, 64, 2);
  if (!quick) decode_case("decode_d128_l200_g4_t3", 2, 8, 2, 200, 128, 3);
  // Many splits of one tile: past the combine kernel's prefetched rows (8 split lanes x 8 for
  // d = 128) and, in the full run, past one split per thread (256) for m and l.
  decode_case("decode_d128_l5000_t1", 1, 2, 1, 5000, 128, 1);
  if (!quick) decode_case("decode_d64_l17000_g2_t1", 1, 2, 1, 17000, 64, 1);
  decode_paged_case("decode_paged_d64_p16_gqa", 3, 4, 2, 200, 64, 16);
  decode_paged_case("decode_paged_d64_p16_g2_t2", 3, 4, 2, 300, 64, 16, 2);
  if (!quick) decode_paged_case("decode_paged_d128_p64", 2, 8, 1, 150, 128, 64);
  std::printf("%s failures=%d\n", g_failures ? "FAIL" : "PASS", g_failures);
  return g_failures ? 1 : 0;
}
