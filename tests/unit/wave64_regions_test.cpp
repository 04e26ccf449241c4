// The wave64 driver's region pass (src/wave64/regions.cpp, region_*.cpp): which kernels it splits, which it
// leaves on the fiber path and why, and the shape of what it writes. That the region form
// computes what the fiber path does is tests/wave64/regions/regions.cu's job (CTest
// wave64.regions.*).
#include <gtest/gtest.h>

#include <string>

#include "wave64/regions.h"

namespace ferry::wave64 {
namespace {

std::string kept_why(const RegionOutcome& r) {
  for (const RegionNote& n : r.notes)
    if (!n.split) return n.message;
  return "";
}

TEST(Wave64Regions, SplitsBarriersInUniformLoops) {
  const std::string src =
      "__global__ void tree(const float* x, float* out) {\n"
      "  __shared__ float s[256];\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  s[threadIdx.x] = x[i];\n"
      "  __syncthreads();\n"
      "  for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {\n"
      "    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];\n"
      "    __syncthreads();\n"
      "  }\n"
      "  if (threadIdx.x == 0) out[blockIdx.x] = s[0];\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  EXPECT_EQ(r.split, 1);
  EXPECT_EQ(r.kept, 0);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_TRUE(r.notes[0].split);
  EXPECT_NE(r.text.find("if (::w64::rg::enter())"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {"), std::string::npos) << r.text;
  // the original body stays as the fiber path, its lines where they were
  EXPECT_NE(r.text.find("#line 1 \"t.cu\"\n"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("#line 11 \"t.cu\"\n}"), std::string::npos) << r.text;
}

// A __shared__ array whose extent is a local declared once before it (rocm-examples'
// moving_average) is declared after that local, between regions, not hoisted above it.
TEST(Wave64Regions, SharedExtentFromAUniformLocalFollowsIt) {
  const std::string src =
      "template <unsigned B, unsigned W>\n"
      "__global__ void avg(const unsigned* in, unsigned* out) {\n"
      "  constexpr unsigned size = B + W - 1;\n"
      "  __shared__ unsigned buf[size];\n"
      "  for (unsigned i = threadIdx.x; i < size; i += B) buf[i] = in[blockIdx.x * B + i];\n"
      "  __syncthreads();\n"
      "  out[blockIdx.x * B + threadIdx.x] = buf[threadIdx.x] + buf[threadIdx.x + W - 1];\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r);
  const std::size_t local = r.text.find("constexpr unsigned size = B + W - 1;");
  const std::size_t shared = r.text.find("__shared__ unsigned buf[size];");
  ASSERT_NE(local, std::string::npos) << r.text;
  ASSERT_NE(shared, std::string::npos) << r.text;
  EXPECT_LT(local, shared) << r.text;
}

TEST(Wave64Regions, LocalsAcrossABarrierBecomePerLaneArrays) {
  const std::string src =
      "__global__ void k(float* y) {\n"
      "  float v = y[threadIdx.x], only_here = 2.f;\n"
      "  int buf[4];\n"
      "  buf[0] = 1;\n"
      "  __syncthreads();\n"
      "  y[threadIdx.x] = v + buf[0] + only_here;\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r);
  EXPECT_NE(r.text.find("::w64::rg::Lanes<std::remove_cv_t<float >> w64_v_v(w64_b);"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("::w64::rg::Lanes<std::remove_cv_t<int >[4]> w64_v_buf(w64_b);"), std::string::npos) << r.text;
  // a small local is copied into the region and back (kept in registers there); an array stays in place
  EXPECT_NE(r.text.find("::w64::rg::Own<decltype(w64_v_v)> w64_o_v(w64_v_v, w64_l); auto& v = w64_o_v.v;"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("::w64::rg::Own<decltype(w64_v_v), false> w64_o_v(w64_v_v, w64_l);"), std::string::npos)
      << "the region after the barrier only reads it\n"
      << r.text;
  // a declaration of several names moves whole
  EXPECT_NE(r.text.find("v = y[threadIdx.x], only_here = 2.f;"), std::string::npos) << r.text;
}

// cuda-samples scan's shape: a uint4 local across barriers, changed a component at a time. In
// registers within each region (rg::Own), except where its address is taken.
TEST(Wave64Regions, VectorLocalsLiveInRegistersWithinARegion) {
  const std::string src =
      "__global__ void k(uint4* d, const uint4* s, unsigned* out) {\n"
      "  uint4 a = s[threadIdx.x];\n"
      "  uint4 b = a;\n"
      "  a.y += a.x;\n"
      "  unsigned* p = &b.x;\n"
      "  __syncthreads();\n"
      "  a.z += out[0] + *p + b.w;\n"
      "  d[threadIdx.x] = a;\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r);
  EXPECT_NE(r.text.find("::w64::rg::Own<decltype(w64_v_a)> w64_o_a(w64_v_a, w64_l); auto& a = w64_o_a.v;"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("auto& b = w64_v_b.p[w64_l];"), std::string::npos) << "its address is taken\n" << r.text;
  EXPECT_EQ(r.text.find("w64_o_b"), std::string::npos) << r.text;
}

// How_to_optimize's reduce_v7 shape: each lane adds a long run of elements in one dependent chain.
// The loop runs in chunks of iterations, a loop over the lanes each, so that the lanes' chains
// interleave; the header runs once for the block.
TEST(Wave64Regions, AccumulationLoopsRunInChunksOverTheLanes) {
  const std::string src =
      "template <int N>\n"
      "__global__ void k(const float* in, float* out) {\n"
      "  float sum = 0;\n"
      "  const unsigned i = blockIdx.x * blockDim.x * N + threadIdx.x;\n"
      "  for (int it = 0; it < N; it++) {\n"
      "    const float x = in[i + it * blockDim.x];\n"
      "    sum += x * x;\n"
      "  }\n"
      "  sum += __shfl_down_sync(0xffffffffu, sum, 16);\n"
      "  out[i] = sum;\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r);
  EXPECT_NE(r.text.find("for (int it = 0; it < N;) { const auto w64_f0 = it; unsigned w64_n0 = 0; for (; w64_n0 < "
                        "::w64::rg::kChunk && (it < N); ++w64_n0, (it++)) {}"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("{ int it = w64_f0; if (w64_n0 == ::w64::rg::kChunk) {"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("for (unsigned w64_j = 0; w64_j < w64_n0; ++w64_j, (it++))"), std::string::npos) << r.text;
  // the accumulator lives across the chunks: one per lane
  EXPECT_NE(r.text.find("::w64::rg::Lanes<std::remove_cv_t<float >> w64_v_sum(w64_b);"), std::string::npos) << r.text;
}

// Loops that stay inside their region: a store to memory, a call with a side effect, an early
// exit, a header that differs between lanes, nothing carried from one iteration to the next.
TEST(Wave64Regions, OtherLoopsStayInTheirRegion) {
  const char* loops[] = {
      "  for (int it = 0; it < 8; ++it) { sum += in[it]; out[it] = sum; }\n",
      "  for (int it = 0; it < 8; ++it) sum += atomicAdd(out, 1.f);\n",
      "  for (int it = 0; it < 8; ++it) { if (in[it] < 0) break; sum += in[it]; }\n",
      "  for (int it = threadIdx.x; it < 8; ++it) sum += in[it];\n",
      "  for (int it = 0; it < 8; ++it) out[it] = in[it];\n",
      "  for (int it = 0; it < 8; ++it) sum += helper(in[it]);\n",
      "  for (int it = 0; it < 8; ++it) { float y = in[it]; sum = y; }\n",
  };
  for (const char* loop : loops) {
    const std::string src =
        "__device__ float helper(float v);\n"
        "__global__ void k(const float* in, float* out) {\n"
        "  float sum = 0;\n" +
        std::string(loop) +
        "  __syncthreads();\n"
        "  out[threadIdx.x] = sum;\n"
        "}\n";
    const RegionOutcome r = form_regions(src, "t.cu");
    EXPECT_EQ(r.text.find("w64_f0"), std::string::npos) << loop << r.text;
  }
}

TEST(Wave64Regions, ShufflesSplitIntoPutRunTake) {
  const std::string src =
      "__global__ void k(float* y) {\n"
      "  float v = y[threadIdx.x];\n"
      "  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);\n"
      "  y[threadIdx.x] = v;\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r);
  EXPECT_NE(r.text.find("::w64::rg::__shfl_down_sync(w64_s0, w64_l, 0xffffffffu, v, o);"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("w64_s0.run();"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("v += w64_s0.take<decltype(__shfl_down_sync(0xffffffffu, v, o))>(w64_l);"), std::string::npos)
      << r.text;
}

TEST(Wave64Regions, WarpOperationsUnderALaneConditionRunForItsLanes) {
  const std::string src =
      "__global__ void k(float* y) {\n"
      "  float v = y[threadIdx.x];\n"
      "  if (threadIdx.x < 16) v = __shfl_xor_sync(0xffffu, v, 1);\n"
      "  y[threadIdx.x] = v;\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r);
  EXPECT_NE(r.text.find("w64_c0.p[w64_l] = (threadIdx.x < 16);"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("if (!(w64_c0.p[w64_l])) continue;"), std::string::npos) << r.text;
}

TEST(Wave64Regions, InlinesFunctionsThatReachABarrier) {
  const std::string src =
      "template <typename T> __device__ T warp_sum(T v) {\n"
      "  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);\n"
      "  return v;\n"
      "}\n"
      "template <typename T> __device__ T block_sum(T v) {\n"
      "  static __shared__ T part[32];\n"
      "  v = warp_sum(v);\n"
      "  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;\n"
      "  __syncthreads();\n"
      "  return part[0] + part[1];\n"
      "}\n"
      "__global__ void k(float* y) {\n"
      "  float v = y[threadIdx.x];\n"
      "  y[threadIdx.x] = 2.f * block_sum<float>(v);\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r) << r.text;
  // the calls are inlined in the region form only; the fiber path keeps the kernel as written
  EXPECT_NE(r.text.find("::w64::rg::Lanes<std::remove_cv_t<float >> w64_v_w64_i0_ret(w64_b);"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("static __shared__ float w64_i0_part [ 32 ] ;"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("y[threadIdx.x] = 2.f * w64_i0_ret ;"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("  y[threadIdx.x] = 2.f * block_sum<float>(v);\n"), std::string::npos) << r.text;
  // every line is where it was
  std::size_t at = r.text.find("#line 15 \"t.cu\"\n}");
  EXPECT_NE(at, std::string::npos) << r.text;
}

TEST(Wave64Regions, KernelsWithoutBarriersAreLeftAlone) {
  const std::string src = "__global__ void k(float* y) { y[threadIdx.x] *= 2.f; }\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  EXPECT_EQ(r.split, 0);
  EXPECT_EQ(r.kept, 0);
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.text, src);
}

TEST(Wave64Regions, WmmaMmaSyncIsOneStepPerWarp) {
  const std::string src =
      "__global__ void g(const half* a, const half* b, float* c, int ksteps) {\n"
      "  __shared__ half sa[256];\n"
      "  c += blockIdx.x * 512;\n"
      "  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;\n"
      "  wmma::fill_fragment(acc, 0.0f);\n"
      "  for (int kt = 0;; ++kt) {\n"
      "    if (kt >= ksteps) break;\n"
      "    sa[threadIdx.x] = a[kt * 256 + threadIdx.x];\n"
      "    __syncthreads();\n"
      "    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
      "    wmma::load_matrix_sync(fa, sa, 16);\n"
      "    wmma::mma_sync(acc, fa, fa, acc);\n"
      "    __syncthreads();\n"
      "  }\n"
      "  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);\n"
      "}\n";
  const RegionOutcome r = form_regions(src, "t.cu");
  ASSERT_EQ(r.split, 1) << kept_why(r);
  // the operands stay where they are: per-lane arrays, their addresses recorded
  EXPECT_NE(r.text.find("w64_v_acc(w64_b);"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("w64_v_fa(w64_b);"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("::w64::rg::mma_sync(w64_s0, w64_l, acc, fa, fa, acc);"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("w64_s0.run();"), std::string::npos) << r.text;
  // block steps: once for the block, between regions
  EXPECT_NE(r.text.find("\nc += blockIdx.x * 512;"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("\nif (kt >= ksteps) break;"), std::string::npos) << r.text;
}

struct KeptCase {
  const char* body;
  const char* why;
};

TEST(Wave64Regions, KeepsTheFiberPathAndSaysWhy) {
  const KeptCase cases[] = {
      {"  if (threadIdx.x >= n) return;\n  __syncthreads();\n  y[0] = 1;\n", "return before a barrier"},
      {"  if (threadIdx.x < 16) __syncthreads();\n", "a barrier under a condition that differs"},
      {"  y[0] = threadIdx.x < 4 ? __shfl_sync(0xffffffffu, y[0], 0) : 0.f;\n", "conditionally"},
      {"  for (int i = threadIdx.x; i < n; ++i) { __syncthreads(); }\n", "reads threadIdx"},
      {"  y[0] = helper(y[0]) + helper(y[1]);\n  __syncthreads();\n", "helper()"},
      {"  n += threadIdx.x;\n  __syncthreads();\n  y[0] = n;\n", "parameter `n` is changed by a value that differs"},
      {"  ++n;\n  __syncthreads();\n  y[0] = n;\n", "`n` is shared by the lanes"},
      {"  auto v = y[threadIdx.x];\n  __syncthreads();\n  y[0] = v;\n", "auto or as a reference"},
      {"  int c = __syncthreads_count(y[0] > 0);\n  y[0] = c;\n", "__syncthreads_count is not split"},
      {"  float t = y[threadIdx.x];\n  while (t > 0) { __syncthreads(); t -= 1; }\n", "reads the local `t`"},
  };
  for (const KeptCase& c : cases) {
    const std::string src =
        "__device__ float helper(float v) { __syncthreads(); return v; }\n"
        "__global__ void k(float* y, int n) {\n" +
        std::string(c.body) + "}\n";
    const RegionOutcome r = form_regions(src, "t.cu");
    EXPECT_EQ(r.split, 0) << c.body << r.text;
    EXPECT_EQ(r.kept, 1) << c.body;
    EXPECT_NE(kept_why(r).find(c.why), std::string::npos) << c.body << "\n" << kept_why(r);
    EXPECT_NE(r.text.find(c.body), std::string::npos) << "the kernel is left as written";
  }
}

}  // namespace
}  // namespace ferry::wave64
