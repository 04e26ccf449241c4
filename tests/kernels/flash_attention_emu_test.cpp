// The FlashAttention kernels of examples/llama_ops run under the CPU emulator (emu/cuda_emu.h)
// with 32-lane warps and with 64-lane wavefronts: forward (O, log-sum-exp) and backward (dQ, dK,
// dV) against a double-precision reference computed from the same 16-bit inputs, causal and not,
// head dims 64 and 128, fp16 and bf16, sequence lengths that are no multiple of any tile, a
// [B, S, H, D] strided layout; and both warp widths must give the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "llama_ops/kernels/flash_attention.cuh"

namespace {

using llama_ops::AttnTensor;
using llama_ops::bf16;
using llama_ops::FlashBwdParams;
using llama_ops::FlashFwdParams;
namespace flash = llama_ops::flash;
using ktest::Buffer16;

struct Case {
  int batch, heads, seq_q, seq_k, dim;
  bool causal;
  bool bshd;  // [B, S, H, D] instead of [B, H, S, D]
};

std::string name(const Case& c) {
  return "B" + std::to_string(c.batch) + "H" + std::to_string(c.heads) + "Sq" + std::to_string(c.seq_q) + "Sk" +
         std::to_string(c.seq_k) + "D" + std::to_string(c.dim) + (c.causal ? "causal" : "") + (c.bshd ? "bshd" : "");
}

// A [B, H or S, S or H, D] tensor of 16-bit elements and its strides.
template <class T>
struct Tensor {
  Buffer16<T> buf;
  AttnTensor view;
  int heads, rows, dim;
  bool bshd;
  Tensor(int b, int h, int s, int d, bool bshd_) : buf((size_t)b * h * s * d), heads(h), rows(s), dim(d), bshd(bshd_) {
    view.data = buf.data();
    view.stride_row = bshd ? (long long)h * d : d;
    view.stride_head = bshd ? d : (long long)s * d;
    view.stride_batch = (long long)h * s * d;
  }
  size_t at(int b, int h, int i, int d) const {
    return (size_t)(b * view.stride_batch + h * view.stride_head + i * view.stride_row + d);
  }
  double get(int b, int h, int i, int d) const { return buf.get(at(b, h, i, d)); }
};

struct Reference {
  std::vector<double> o, lse, dq, dk, dv;  // [B, H, S, D] / [B, H, Sq]
};

template <class T>
Reference reference(const Case& c, const Tensor<T>& q, const Tensor<T>& k, const Tensor<T>& v, const Tensor<T>& dout) {
  const int B = c.batch, H = c.heads, Sq = c.seq_q, Sk = c.seq_k, D = c.dim;
  const double scale = 1.0 / std::sqrt((double)D);
  Reference r;
  r.o.assign((size_t)B * H * Sq * D, 0);
  r.lse.assign((size_t)B * H * Sq, 0);
  r.dq.assign((size_t)B * H * Sq * D, 0);
  r.dk.assign((size_t)B * H * Sk * D, 0);
  r.dv.assign((size_t)B * H * Sk * D, 0);
  std::vector<double> p(Sk), dp(Sk);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < Sq; ++i) {
        double mx = -INFINITY;
        for (int j = 0; j < Sk; ++j) {
          if (c.causal && j > i) {
            p[j] = -INFINITY;
            continue;
          }
          double s = 0;
          for (int d = 0; d < D; ++d) s += q.get(b, h, i, d) * k.get(b, h, j, d);
          p[j] = s * scale;
          mx = std::max(mx, p[j]);
        }
        double sum = 0;
        for (int j = 0; j < Sk; ++j) sum += (p[j] = std::exp(p[j] - mx));
        const size_t row = ((size_t)b * H + h) * Sq + i;
        r.lse[row] = mx + std::log(sum);
        for (int j = 0; j < Sk; ++j) p[j] /= sum;
        for (int d = 0; d < D; ++d) {
          double acc = 0;
          for (int j = 0; j < Sk; ++j) acc += p[j] * v.get(b, h, j, d);
          r.o[row * D + d] = acc;
        }
        double delta = 0;
        for (int j = 0; j < Sk; ++j) {
          double s = 0;
          for (int d = 0; d < D; ++d) s += dout.get(b, h, i, d) * v.get(b, h, j, d);
          dp[j] = s;
          delta += p[j] * s;
        }
        for (int j = 0; j < Sk; ++j) {
          const double ds = p[j] * (dp[j] - delta);
          const size_t krow = ((size_t)b * H + h) * Sk + j;
          for (int d = 0; d < D; ++d) {
            r.dq[row * D + d] += scale * ds * k.get(b, h, j, d);
            r.dk[krow * D + d] += scale * ds * q.get(b, h, i, d);
            r.dv[krow * D + d] += p[j] * dout.get(b, h, i, d);
          }
        }
      }
  return r;
}

template <class T>
struct Run {
  std::vector<unsigned short> o, dq, dk, dv;
  std::vector<float> lse;
};

template <class T, int D>
Run<T> run_kernels(const Case& c, Tensor<T>& q, Tensor<T>& k, Tensor<T>& v, Tensor<T>& dout, int warp) {
  const int B = c.batch, H = c.heads;
  Tensor<T> o(B, H, c.seq_q, D, c.bshd), dq(B, H, c.seq_q, D, c.bshd), dk(B, H, c.seq_k, D, c.bshd),
      dv(B, H, c.seq_k, D, c.bshd);
  std::vector<float> lse((size_t)B * H * c.seq_q, NAN), delta((size_t)B * H * c.seq_q, NAN);
  const emu::LaunchOptions opt{warp};

  FlashFwdParams f;
  f.q = q.view;
  f.k = k.view;
  f.v = v.view;
  f.o = o.view;
  f.lse = lse.data();
  f.batch = B;
  f.heads = H;
  f.seq_q = c.seq_q;
  f.seq_k = c.seq_k;
  f.scale = 1.f / std::sqrt((float)D);
  f.causal = c.causal;
  emu::launch(dim3((c.seq_q + flash::FwdShape<D>::BM - 1) / flash::FwdShape<D>::BM, B * H), dim3(flash::kThreads), opt,
              flash::flash_fwd_kernel<T, D>, f);

  FlashBwdParams g;
  g.q = q.view;
  g.k = k.view;
  g.v = v.view;
  g.o = o.view;
  g.dout = dout.view;
  g.dq = dq.view;
  g.dk = dk.view;
  g.dv = dv.view;
  g.lse = lse.data();
  g.delta = delta.data();
  g.batch = B;
  g.heads = H;
  g.seq_q = c.seq_q;
  g.seq_k = c.seq_k;
  g.scale = f.scale;
  g.causal = c.causal;
  const int rows = B * H * c.seq_q;
  emu::launch(dim3((rows + flash::kRowGroups - 1) / flash::kRowGroups), dim3(flash::kThreads), opt,
              flash::flash_bwd_delta_kernel<T, D>, g);
  emu::launch(dim3((c.seq_k + flash::BwdKVShape<D>::BM - 1) / flash::BwdKVShape<D>::BM, B * H), dim3(flash::kThreads),
              opt, flash::flash_bwd_dkdv_kernel<T, D>, g);
  emu::launch(dim3((c.seq_q + flash::BwdQShape<D>::BM - 1) / flash::BwdQShape<D>::BM, B * H), dim3(flash::kThreads),
              opt, flash::flash_bwd_dq_kernel<T, D>, g);
  return {o.buf.bits(), dq.buf.bits(), dk.buf.bits(), dv.buf.bits(), lse};
}

// max |got - want| over a tensor in [B, H, S, D] order against a reference, relative to max |want|.
template <class T>
double max_err(const Case& c, const std::vector<unsigned short>& bits, int rows, const std::vector<double>& want) {
  Tensor<T> t(c.batch, c.heads, rows, c.dim, c.bshd);
  t.buf.set_bits(bits);
  double err = 0, scale = 1e-30;
  for (int b = 0; b < c.batch; ++b)
    for (int h = 0; h < c.heads; ++h)
      for (int i = 0; i < rows; ++i)
        for (int d = 0; d < c.dim; ++d) {
          const double w = want[(((size_t)b * c.heads + h) * rows + i) * c.dim + d];
          const double g = t.get(b, h, i, d);
          if (!std::isfinite(g)) return INFINITY;
          err = std::max(err, std::fabs(g - w));
          scale = std::max(scale, std::fabs(w));
        }
  return err / scale;
}

template <class T, int D>
void check(const Case& c, double tol_fwd, double tol_bwd) {
  SCOPED_TRACE(name(c));
  std::mt19937 rng(1234 + c.seq_q * 7 + c.seq_k + D);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  Tensor<T> q(c.batch, c.heads, c.seq_q, D, c.bshd), k(c.batch, c.heads, c.seq_k, D, c.bshd),
      v(c.batch, c.heads, c.seq_k, D, c.bshd), dout(c.batch, c.heads, c.seq_q, D, c.bshd);
  // Larger q and k make the softmax peaked, as in trained models.
  for (size_t i = 0; i < q.buf.size(); ++i) q.buf.set(i, 2.5f * u(rng));
  for (size_t i = 0; i < k.buf.size(); ++i) k.buf.set(i, 2.5f * u(rng));
  for (size_t i = 0; i < v.buf.size(); ++i) v.buf.set(i, u(rng));
  for (size_t i = 0; i < dout.buf.size(); ++i) dout.buf.set(i, u(rng));
  const Reference ref = reference(c, q, k, v, dout);

  const Run<T> r32 = run_kernels<T, D>(c, q, k, v, dout, 32);
  EXPECT_LE(max_err<T>(c, r32.o, c.seq_q, ref.o), tol_fwd) << "O";
  double lse_err = 0;
  for (size_t i = 0; i < ref.lse.size(); ++i) lse_err = std::max(lse_err, std::fabs(r32.lse[i] - ref.lse[i]));
  EXPECT_LE(lse_err, 1e-4) << "lse";
  EXPECT_LE(max_err<T>(c, r32.dq, c.seq_q, ref.dq), tol_bwd) << "dQ";
  EXPECT_LE(max_err<T>(c, r32.dk, c.seq_k, ref.dk), tol_bwd) << "dK";
  EXPECT_LE(max_err<T>(c, r32.dv, c.seq_k, ref.dv), tol_bwd) << "dV";

  // A 64-lane wavefront runs the same arithmetic in the same order: identical bits.
  const Run<T> r64 = run_kernels<T, D>(c, q, k, v, dout, 64);
  EXPECT_EQ(r64.o, r32.o);
  EXPECT_EQ(r64.lse, r32.lse);
  EXPECT_EQ(r64.dq, r32.dq);
  EXPECT_EQ(r64.dk, r32.dk);
  EXPECT_EQ(r64.dv, r32.dv);
}

// Relative to the largest reference value: a few units of the 16-bit format's epsilon
// (fp16 2^-11, bf16 2^-8), more for the gradients, which sum more rounded terms.
constexpr double kTolF16 = 1e-3, kTolF16Bwd = 1.5e-3, kTolBf16 = 8e-3, kTolBf16Bwd = 1.2e-2;

TEST(FlashAttentionEmu, Fp16HeadDim64) {
  for (bool causal : {false, true}) check<__half, 64>({1, 2, 100, 100, 64, causal, false}, kTolF16, kTolF16Bwd);
  check<__half, 64>({2, 1, 37, 77, 64, false, true}, kTolF16, kTolF16Bwd);
}

TEST(FlashAttentionEmu, Fp16HeadDim128) {
  for (bool causal : {false, true}) check<__half, 128>({1, 2, 70, 70, 128, causal, true}, kTolF16, kTolF16Bwd);
}

TEST(FlashAttentionEmu, Bf16HeadDim64) {
  for (bool causal : {false, true}) check<bf16, 64>({2, 1, 90, 90, 64, causal, true}, kTolBf16, kTolBf16Bwd);
}

TEST(FlashAttentionEmu, Bf16HeadDim128) {
  for (bool causal : {false, true}) check<bf16, 128>({1, 2, 65, 65, 128, causal, false}, kTolBf16, kTolBf16Bwd);
  check<bf16, 128>({1, 1, 20, 45, 128, false, false}, kTolBf16, kTolBf16Bwd);
}

}  // namespace
