// The backward kernels of examples/llama_ops (kernels/backward.cuh) under the CPU emulator, with
// 32- and 64-lane warps, against double-precision gradients; the block reductions must give the
// same bits for both widths.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cuda_emu.h"
#include "llama_ops/kernels/backward.cuh"

namespace {

namespace bwd = llama_ops::bwd;

std::vector<float> random_vector(size_t n, unsigned seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

double max_rel_err(const std::vector<float>& got, const std::vector<double>& want) {
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::fabs(got[i] - want[i]));
    scale = std::max(scale, std::fabs(want[i]));
  }
  return err / scale;
}

struct RmsGrads {
  std::vector<float> dx, dw;
};

RmsGrads run_rmsnorm_backward(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& dy,
                              int rows, int hidden, float eps, int warp) {
  RmsGrads g{std::vector<float>(x.size(), NAN), std::vector<float>(hidden, NAN)};
  const int chunks = (rows + bwd::kRmsChunk - 1) / bwd::kRmsChunk;
  std::vector<float> rstd(rows), partial((size_t)chunks * hidden);
  const emu::LaunchOptions opt{warp};
  emu::launch(dim3(rows), dim3(bwd::kRmsThreads), opt, bwd::rmsnorm_backward_kernel<bwd::kRmsThreads>, x.data(),
              w.data(), dy.data(), g.dx.data(), rstd.data(), hidden, eps);
  emu::launch(dim3((hidden + 255) / 256, chunks), dim3(256), opt, bwd::rmsnorm_dweight_partial_kernel, x.data(),
              dy.data(), rstd.data(), partial.data(), rows, hidden);
  emu::launch(dim3((hidden + 255) / 256), dim3(256), opt, bwd::sum_columns_kernel, partial.data(), g.dw.data(), chunks,
              hidden);
  return g;
}

TEST(BackwardEmu, RmsNorm) {
  for (const auto& [rows, hidden] : {std::pair{70, 384}, std::pair{3, 1000}, std::pair{130, 64}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(hidden));
    const float eps = 1e-5f;
    const auto x = random_vector((size_t)rows * hidden, 1, -2.f, 2.f);
    const auto w = random_vector(hidden, 2, 0.5f, 1.5f);
    const auto dy = random_vector((size_t)rows * hidden, 3);
    std::vector<double> dx(x.size()), dw(hidden, 0.0);
    for (int r = 0; r < rows; ++r) {
      double ss = 0, dot = 0;
      for (int i = 0; i < hidden; ++i) {
        const size_t e = (size_t)r * hidden + i;
        ss += (double)x[e] * x[e];
        dot += (double)w[i] * dy[e] * x[e];
      }
      const double rs = 1.0 / std::sqrt(ss / hidden + eps);
      for (int i = 0; i < hidden; ++i) {
        const size_t e = (size_t)r * hidden + i;
        dx[e] = rs * w[i] * dy[e] - x[e] * rs * rs * rs * dot / hidden;
        dw[i] += (double)dy[e] * x[e] * rs;
      }
    }
    const RmsGrads g32 = run_rmsnorm_backward(x, w, dy, rows, hidden, eps, 32);
    EXPECT_LE(max_rel_err(g32.dx, dx), 1e-5);
    EXPECT_LE(max_rel_err(g32.dw, dw), 1e-5);
    // 64 lanes sum the block in another order (4 wavefront partials instead of 8 warp ones):
    // not the same bits, the same accuracy.
    const RmsGrads g64 = run_rmsnorm_backward(x, w, dy, rows, hidden, eps, 64);
    EXPECT_LE(max_rel_err(g64.dx, dx), 1e-5);
    EXPECT_LE(max_rel_err(g64.dw, dw), 1e-5);
  }
}

TEST(BackwardEmu, SwiGlu) {
  const int64_t n = 5000;
  const auto g = random_vector(n, 4, -6.f, 6.f), u = random_vector(n, 5), d = random_vector(n, 6);
  std::vector<float> dg(n, NAN), du(n, NAN);
  emu::launch(dim3(7), dim3(256), {32}, bwd::swiglu_backward_kernel, g.data(), u.data(), d.data(), dg.data(), du.data(),
              n);
  std::vector<double> want_g(n), want_u(n);
  for (int64_t i = 0; i < n; ++i) {
    // Central differences of silu(g) * u in double, checked against the closed form.
    const double gi = g[i], s = 1 / (1 + std::exp(-gi)), h = 1e-6;
    auto f = [&](double z) { return z / (1 + std::exp(-z)) * u[i]; };
    want_g[i] = d[i] * (f(gi + h) - f(gi - h)) / (2 * h);
    want_u[i] = d[i] * gi * s;
  }
  EXPECT_LE(max_rel_err(dg, want_g), 1e-5);
  EXPECT_LE(max_rel_err(du, want_u), 1e-6);
}

TEST(BackwardEmu, EmbeddingScatterAdd) {
  const int tokens = 300, hidden = 48, vocab = 20;
  std::mt19937 rng(7);
  std::vector<int> ids(tokens);
  for (int& id : ids) id = (int)(rng() % (vocab + 4)) - 2;  // some outside [0, vocab)
  const auto dout = random_vector((size_t)tokens * hidden, 8);
  std::vector<float> table((size_t)vocab * hidden, 0.f);
  emu::launch(dim3(13), dim3(256), {64}, bwd::embedding_backward_kernel, ids.data(), dout.data(), table.data(), tokens,
              hidden, vocab);
  std::vector<double> want(table.size(), 0.0);
  for (int t = 0; t < tokens; ++t)
    if (ids[t] >= 0 && ids[t] < vocab)
      for (int i = 0; i < hidden; ++i) want[(size_t)ids[t] * hidden + i] += dout[(size_t)t * hidden + i];
  EXPECT_LE(max_rel_err(table, want), 1e-6);
}

// The emulator itself: a reduction written for 32 lanes (offsets from 16) is caught by the
// 64-lane run, which is what the bit-identity checks above rely on.
__device__ float reduce_from_16(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__global__ void warp_total(const float* in, float* out) {
  const float v = reduce_from_16(in[threadIdx.x]);
  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;
}

TEST(BackwardEmu, EmulatorSeesThirtyTwoLaneAssumption) {
  std::vector<float> in(64, 1.f), out(2, 0.f);
  emu::launch(dim3(1), dim3(64), {32}, warp_total, in.data(), out.data());
  EXPECT_EQ(out[0], 32.f);
  EXPECT_EQ(out[1], 32.f);
  emu::launch(dim3(1), dim3(64), {64}, warp_total, in.data(), out.data());
  EXPECT_EQ(out[0], 32.f) << "on 64 lanes the butterfly from 16 sums only half the wavefront";
}

__global__ void divergent_barrier(int* out) {
  if (threadIdx.x < 16) __syncthreads();
  out[threadIdx.x] = 1;
  __syncthreads();
}
__global__ void divergent_shuffle(float* out) {
  if (threadIdx.x % warpSize < 8) out[threadIdx.x] = __shfl_xor_sync(0xffu, 1.f, 1, 8);
}

TEST(BackwardEmu, EmulatorRejectsDivergentBarriers) {
  std::vector<int> o(64);
  EXPECT_THROW(emu::launch(dim3(1), dim3(64), {32}, divergent_barrier, o.data()), std::runtime_error);
  std::vector<float> f(64);
  EXPECT_THROW(emu::launch(dim3(1), dim3(64), {32}, divergent_shuffle, f.data()), std::runtime_error);
}

}  // namespace
