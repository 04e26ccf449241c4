// Checks llama_ops' FlashAttention forward (the WMMA kernel when the library is built with
// LLAMA_OPS_WMMA=1, else the scalar one) and the decode kernel against a float64 CPU reference, on
// small fp16 shapes: a tail tile, causal, grouped-query attention, both head dimensions. Written
// in CUDA like the library: tests/e2e/test_flash_wmma.sh runs it on the wave64 CPU runtime as
// CUDA at warp 32, and migrated to HIP (rocWMMA) at wave 64.
//
// Output: "OP <name> <PASS|FAIL> err=<max abs error> tol=<tolerance>" per case, "PATH wmma|scalar";
// exit 1 on a failure.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

void decode_case(const char* name, int B, int H, int KVH, int L, int D) {
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
  decode_case("decode_d64_l300_gqa", 1, 4, 2, 300, 64);
  if (!quick) decode_case("decode_d128_l70", 2, 2, 2, 70, 128);
  std::printf("%s failures=%d\n", g_failures ? "FAIL" : "PASS", g_failures);
  return g_failures ? 1 : 0;
}
