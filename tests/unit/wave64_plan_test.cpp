// Unit tests of the wave64 planner's units (src/analysis/wave64_fix/), each under a heading with
// its file's name: the token helpers, the shuffle-loop reader, the project graph (which definition
// a call means), the block-size values, the three forms (logical, rows, WMMA), the lane masks, the
// sites (a warp-width constant), the host launchers with the policy's fallback, the macro reader,
// the site fixes and the hint texts. The goldens and e2e/test_wave64_fixes.sh prove the whole
// fixer by running; these pin each unit's contract where it is decided.
#include "analysis/wave64_fix/planner.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "analysis/facts_spool.h"
#include "analysis/hazards.h"
#include "analysis/wave64_fix/hints.h"
#include "targets/target.h"

namespace ferry::analysis::wave64_plan {
namespace {

using Sources = std::vector<std::pair<std::string, std::string>>;

// A project of files as the planner reads them: each with its FileMigration and facts.
struct Project {
  explicit Project(Sources sources) : srcs(std::move(sources)) {
    target = targets::make_target("hip", options);
    for (const auto& [name, text] : srcs)
      files.push_back(std::make_unique<migrate::FileMigration>(name, text, *target, options, ctx));
    std::set<std::string> conflicting;
    for (const auto& f : files) {
      const FileFacts facts = collect_facts(*f);
      merge_project_constants(facts, constants, conflicting);
      record_warp_constant_uses(*f, facts, uses);
    }
    for (const auto& f : files) facts.push_back(collect_facts(*f, &constants));
  }
  Wave64FixPlan plan(const Wave64FixOptions& o = {}) {
    std::vector<Wave64FixInput> in;
    for (std::size_t i = 0; i < files.size(); ++i) in.push_back({srcs[i].first, files[i].get(), &facts[i]});
    return plan_wave64_fixes(in, *find_profile("gfx906"), uses, o);
  }
  // The plan of a planner that keeps no file's tokens: each input lexes its text again when read
  // (Wave64FixInput::load, what a tree's migration does); `loads` counts the lexes.
  Wave64FixPlan plan_lexing_on_demand(std::size_t& loads, const Wave64FixOptions& o = {}) {
    std::vector<Wave64FixInput> in;
    for (std::size_t i = 0; i < files.size(); ++i)
      in.push_back({srcs[i].first, nullptr, &facts[i],
                    [this, i, &loads] {
                      ++loads;
                      return std::make_unique<migrate::FileMigration>(srcs[i].first, srcs[i].second, *target, options,
                                                                      ctx);
                    },
                    srcs[i].second});
    return plan_wave64_fixes(in, *find_profile("gfx906"), uses, o);
  }
  // As plan_lexing_on_demand, with the facts read from a FactsSpool when the planner reads a file
  // (Wave64FixInput::load_facts: a tree's migration holds no file's facts); `reads` counts them.
  // With `heads`, the planner reads the facts' heads from the spool too (Wave64FixInput::load_head)
  // and `*heads` counts them; without, it reads the facts for their heads.
  Wave64FixPlan plan_reading_facts(std::size_t& loads, std::size_t& reads, const Wave64FixOptions& o = {},
                                   std::size_t* heads = nullptr) {
    FactsSpool spool;
    for (const FileFacts& f : facts) spool.put(f);
    std::vector<Wave64FixInput> in;
    for (std::size_t i = 0; i < files.size(); ++i)
      in.push_back({srcs[i].first,
                    nullptr,
                    nullptr,
                    [this, i, &loads] {
                      ++loads;
                      return std::make_unique<migrate::FileMigration>(srcs[i].first, srcs[i].second, *target, options,
                                                                      ctx);
                    },
                    srcs[i].second,
                    {},
                    [this, i, &spool, &reads] {
                      ++reads;
                      auto read = std::make_shared<FileFacts>(spool.get(i));
                      read->project_constants = &constants;
                      return std::shared_ptr<const FileFacts>(std::move(read));
                    }});
    if (heads)
      for (std::size_t i = 0; i < files.size(); ++i)
        in[i].load_head = [i, &spool, heads] {
          ++*heads;
          return spool.head(i);
        };
    return plan_wave64_fixes(in, *find_profile("gfx906"), uses, o);
  }
  // The text of file `i` with its planned edits applied.
  std::string fixed(const Wave64FixPlan& p, std::size_t i) {
    const auto fp = p.files.find(srcs[i].first);
    if (fp == p.files.end()) return srcs[i].second;
    migrate::FileMigration f(srcs[i].first, srcs[i].second, *target, options, ctx);
    EXPECT_TRUE(apply_wave64_fixes(f, fp->second));
    return f.edits().apply(f.source());
  }
  Tokens tokens(std::size_t i) const { return Tokens{*files[i], facts[i]}; }
  std::size_t find(std::size_t i, std::string_view text, std::size_t from = 0) const {
    for (std::size_t ci = from; ci < files[i]->code_size(); ++ci)
      if (files[i]->text(ci) == text) return ci;
    return npos;
  }

  std::vector<std::pair<std::string, std::string>> srcs;
  targets::Options options;
  targets::ProjectContext ctx;
  std::unique_ptr<targets::Target> target;
  std::vector<std::unique_ptr<migrate::FileMigration>> files;
  std::map<std::string, long long> constants;  // the facts point into it (FileFacts::project_constants)
  std::vector<FileFacts> facts;
  WarpConstantUses uses;
};

// The reasons the plan gives for the components it left (for failure messages).
std::string describe_blocked(const Wave64FixPlan& plan) {
  std::string out;
  for (const std::string& b : plan.blocked) out += b + "\n";
  return out;
}

// ---- token_helpers.cpp --------------------------------------------------------------------------

TEST(Wave64PlanTokens, SplitCommasKeepsNestedGroupsWhole) {
  Project p(Sources{{"t.cu", "void f() { g(a, h(b, c), {d, e}, x[1, 2]); }"}});
  const Tokens v = p.tokens(0);
  const std::size_t open = p.find(0, "g") + 1;
  const auto parts = split_commas(v, open + 1, v.partner(open) - 1);
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(v.t(parts[1].first), "h");
  EXPECT_EQ(v.t(parts[1].second), ")");
  EXPECT_EQ(v.t(parts[2].first), "{");
  EXPECT_EQ(v.t(parts[3].first), "x");
}

TEST(Wave64PlanTokens, LaunchedNameReadsBackOverTemplateArguments) {
  Project p(Sources{{"t.cu", "void h() { reduce<float, 4><<<1, 64>>>(p); plain<<<1, 32>>>(); }"}});
  const Tokens v = p.tokens(0);
  std::vector<std::string_view> names;
  for (std::size_t ci = 0; ci < v.size(); ++ci)
    if (v.f.code(ci).kind == lex::Kind::LaunchOpen) names.push_back(v.t(launched_name(v, ci, 0)));
  EXPECT_EQ(names, (std::vector<std::string_view>{"reduce", "plain"}));
}

TEST(Wave64PlanTokens, WarpIndexVariablesAreDividedByTheWarpWidth) {
  Project p(Sources{{"t.cu", R"(
__global__ void k() {
  int warp = threadIdx.x / 32;
  int w2 = threadIdx.x >> 5;
  int row = threadIdx.x / 16;
}
)"}});
  const auto vars = warp_index_vars(p.tokens(0), p.facts[0].functions.at(0));
  EXPECT_EQ(vars, (std::set<std::string_view>{"warp", "w2"}));
}

TEST(Wave64PlanTokens, FirstAtFindsTheTokenAtOrAfterAnOffset) {
  Project p(Sources{{"t.cu", "int a = 1;  int b;"}});
  const Tokens v = p.tokens(0);
  EXPECT_EQ(v.first_at(0), 0u);
  EXPECT_EQ(v.t(v.first_at(v.at(3) + 1)), ";");  // inside `1`: the next token
  EXPECT_EQ(v.t(v.first_at(v.end(4))), "int");   // inside the whitespace after `;`
  EXPECT_EQ(v.first_at(10000), v.size());
}

// ---- shuffle_loop.cpp ---------------------------------------------------------------------------

TEST(Wave64PlanShuffleLoop, HalvingLoopFrom16StartsAtHalfTheWarp) {
  Project p(Sources{{"t.cu", R"(
__device__ float sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o, 32);
  return v;
}
)"}});
  const LoopInfo L = shuffle_loop(p.tokens(0), p.find(0, "for"));
  ASSERT_NE(L.hit, npos);
  EXPECT_TRUE(L.halving);
  ASSERT_TRUE(L.safe) << L.why;
  ASSERT_EQ(L.edits.size(), 2u);
  EXPECT_EQ(L.edits[0].text, "warpSize / 2");
  EXPECT_EQ(L.edits[1].text, "warpSize");  // the explicit width 32
}

TEST(Wave64PlanShuffleLoop, AnOffsetThatIsNotTheLoopVariableIsNotRewritten) {
  Project p(Sources{{"t.cu", R"(
__device__ float sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o * 2);
  return v;
}
)"}});
  const LoopInfo L = shuffle_loop(p.tokens(0), p.find(0, "for"));
  ASSERT_NE(L.hit, npos);
  EXPECT_FALSE(L.safe);
  EXPECT_EQ(L.why, "the shuffle offset is not the loop variable alone");
  EXPECT_TRUE(L.edits.empty());
}

TEST(Wave64PlanShuffleLoop, AnOffsetUsedOutsideTheShufflesIsNotRewritten) {
  Project p(Sources{{"t.cu", R"(
__device__ float sum(float v, float* log) {
  for (int o = 16; o > 0; o >>= 1) { v += __shfl_down_sync(0xffffffff, v, o); log[o] = v; }
  return v;
}
)"}});
  const LoopInfo L = shuffle_loop(p.tokens(0), p.find(0, "for"));
  ASSERT_NE(L.hit, npos);
  EXPECT_FALSE(L.safe);
  EXPECT_EQ(L.why, "the loop variable is used outside the shuffles' offsets");
}

TEST(Wave64PlanShuffleLoop, GuardedUnrolledStepIsFound) {
  Project p(Sources{{"t.cu", R"(
template <int W> __device__ float sum(float v) {
  if (W >= 32) v += __shfl_down_sync(0xffffffff, v, 16);
  return v;
}
)"}});
  const Tokens v = p.tokens(0);
  const FunctionInfo& fi = p.facts[0].functions.at(0);
  const std::size_t sa = p.find(0, "if");
  const auto [a, b] = v.statement(sa + 5, fi.body_open + 1, fi.body_close);
  const std::size_t k = guarded_shuffle_step(v, fi, a, b, sa + 4);
  ASSERT_NE(k, npos);
  EXPECT_EQ(v.t(k), "16");
}

// ---- graph.cpp: which definition a call means, and components across files ----------------------

constexpr std::string_view kReduceHeader = R"(#pragma once
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
)";

TEST(Wave64PlanGraph, AHelperInAnIncludedHeaderIsFixedWithItsCaller) {
  Project p(Sources{{"src/reduce.cuh", std::string(kReduceHeader)}, {"src/main.cu", R"(#include "reduce.cuh"
__global__ void k(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]); }
void run(float* x) { k<<<1, 256>>>(x); }
)"}});
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.components, 1);
  EXPECT_EQ(plan.stats.fixed_components, 1);
  EXPECT_NE(p.fixed(plan, 0).find("int o = (warpSize / 2) /* ferry-cuda: 16 */;"), std::string::npos);
}

TEST(Wave64PlanGraph, ProgramsThatDefineTheSameHelperAreSeparateComponents) {
  // Two standalone programs, each with its own warp_sum: an unfixable one (a shuffle width of 16)
  // must not block the other.
  Project p(Sources{{"a/main.cu", std::string(kReduceHeader) + R"(
__global__ void k(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]); }
void run(float* x) { k<<<1, 256>>>(x); }
)"},
                    {"b/main.cu", R"(
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o, 16);
  return v;
}
__global__ void k(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]) + (threadIdx.x & 31); }
void run(float* x) { k<<<1, 256>>>(x); }
)"}});
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.components, 2);
  EXPECT_NE(p.fixed(plan, 0).find("int o = (warpSize / 2) /* ferry-cuda: 16 */;"), std::string::npos);
  ASSERT_TRUE(plan.files.count("b/main.cu"));
  EXPECT_TRUE(plan.files.at("b/main.cu").fixed.empty() || !plan.files.at("b/main.cu").fixed_how.empty());
}

// ---- block_values.cpp ---------------------------------------------------------------------------

TEST(Wave64PlanBlockValues, ABlockSizeThroughALauncherParameterIsEvaluatedAtItsCallSites) {
  // 96 threads is not a whole number of 64-lane wavefronts: the warpSize form cannot take the
  // kernel (a wavefront would straddle two CUDA rows), so the logical form does.
  const std::string kernel = R"(
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) x[threadIdx.x / 32] = v;
}
void launch(float* x, int threads) { k<<<1, threads>>>(x); }
)";
  Project odd(Sources{{"t.cu", kernel + "void run(float* x) { launch(x, 96); }\n"}});
  const Wave64FixPlan p96 = odd.plan();
  EXPECT_EQ(p96.stats.fixed_components, 1);
  EXPECT_EQ(p96.stats.logical_components, 1);
  Project even(Sources{{"t.cu", kernel + "void run(float* x) { launch(x, 128); launch(x, 256); }\n"}});
  const Wave64FixPlan p128 = even.plan();
  EXPECT_EQ(p128.stats.fixed_components, 1);
  EXPECT_EQ(p128.stats.logical_components, 0);
  EXPECT_NE(even.fixed(p128, 0).find("threadIdx.x & (warpSize - 1)"), std::string::npos);
}

// ---- the forms and the policy -------------------------------------------------------------------

TEST(Wave64PlanForms, LogicalFormKeepsThe32sAndSaysWhy) {
  Project p(Sources{{"t.cu", R"(
__global__ void k(float* x, int n) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) x[threadIdx.x / 32] = v;
}
void run(float* x, int n) { k<<<1, 96>>>(x, n); }
)"}});
  // 96 threads: a 64-lane wavefront would hold lanes of two CUDA warps, so the warpSize form is out.
  const Wave64FixPlan plan = p.plan();
  ASSERT_EQ(plan.stats.logical_components, 1);
  const Wave64FilePlan& fp = plan.files.at("t.cu");
  ASSERT_FALSE(fp.fixed_how.empty());
  EXPECT_TRUE(fp.fixed_how.begin()->second.starts_with("kept as 32-lane logical warps"));
  const std::string out = p.fixed(plan, 0);
  EXPECT_NE(out.find("o = 16"), std::string::npos);     // the loop keeps its 32-lane start
  EXPECT_NE(out.find(kAddedWidth), std::string::npos);  // and its shuffle the width 32, recorded
}

TEST(Wave64PlanForms, AnExcludedLineBlocksItsComponent) {
  Project p(Sources{{"t.cu", R"(
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);  // ferry: ignore
  x[threadIdx.x] = v;
}
void run(float* x) { k<<<1, 256>>>(x); }
)"}});
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.fixed_components, 0);
  ASSERT_EQ(plan.blocked.size(), 1u);
  EXPECT_NE(plan.blocked[0].find("a line to change is excluded from rewriting"), std::string::npos);
  EXPECT_EQ(p.fixed(plan, 0), p.srcs[0].second);
}

// ---- form_rows.cpp ------------------------------------------------------------------------------

TEST(Wave64PlanForms, RowsOf32KeepTheirWidthInEveryShuffle) {
  Project p(Sources{{"t.cu", R"(
__global__ void rows(float* y, int n) {
  const int lane = threadIdx.x % 32;
  float s = y[threadIdx.y * n + lane];
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
  const float r = __shfl_sync(0xffffffff, s, lane + 1);
  if (lane == 0) y[threadIdx.y] = s + r;
}
void run(float* y, int n) { dim3 block(32, 8); rows<<<1, block>>>(y, n); }
)"}});
  // Blocks 32 wide: a wavefront holds two rows, each a CUDA warp; the 32-lane arithmetic stays.
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.fixed_components, 1) << describe_blocked(plan);
  const std::string out = p.fixed(plan, 0);
  EXPECT_NE(out.find("threadIdx.x % 32"), std::string::npos) << out;
  EXPECT_NE(out.find("o = 16"), std::string::npos) << out;
  EXPECT_NE(out.find("__shfl_xor_sync(0xffffffff, s, o" + kAddedWidth + ")"), std::string::npos) << out;
  EXPECT_NE(out.find("lane + 1"), std::string::npos) << out;
}

// ---- form_wmma.cpp ------------------------------------------------------------------------------

TEST(Wave64PlanForms, WmmaFormDoublesTheBlockAndCountsWarpsIn64Threads) {
  Project p(Sources{{"t.cu", R"(
#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const half* a, const half* b, float* d, int k) {
  const int warp = threadIdx.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a + warp * 256, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d + warp * 256, acc, 16, wmma::mem_row_major);
}
void run(const half* a, const half* b, float* d, int k) { gemm<<<1, 128>>>(a, b, d, k); }
)"}});
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.fixed_components, 1) << describe_blocked(plan);
  const std::string out = p.fixed(plan, 0);
  EXPECT_NE(out.find("/ 64 " + rewrite::record::make("32")), std::string::npos) << out;
  EXPECT_NE(out.find("<<<1, 2 * (128) " + rewrite::record::make("128") + ">>>"), std::string::npos) << out;
}

// ---- masks.cpp ----------------------------------------------------------------------------------

TEST(Wave64PlanMasks, ABallotKeptIn32BitsIsWidenedWithItsBitCount) {
  Project p(Sources{{"t.cu", R"(
__global__ void count(const int* in, int* out) {
  const bool hit = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
  const unsigned ballot = __ballot_sync(0xffffffff, hit);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, __popc(ballot));
}
void run(const int* in, int* out) { count<<<4, 256>>>(in, out); }
)"}});
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.fixed_components, 1) << describe_blocked(plan);
  const std::string out = p.fixed(plan, 0);
  EXPECT_NE(out.find("unsigned long long " + rewrite::record::make("unsigned") + " ballot"), std::string::npos) << out;
  EXPECT_NE(out.find("__popcll " + rewrite::record::make("__popc") + "(ballot)"), std::string::npos) << out;
  EXPECT_EQ(plan.files.at("t.cu").widened_vars.size(), 1u);
}

// ---- sites.cpp ----------------------------------------------------------------------------------

TEST(Wave64PlanSites, AWarpWidthConstantBecomesThePerTargetWidth) {
  Project p(Sources{{"t.cu", R"(
#define WARP_SIZE 32
__global__ void sum(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  if (threadIdx.x % WARP_SIZE == 0) atomicAdd(out, v);
}
void run(const int* in, int* out) { sum<<<4, 256>>>(in, out); }
)"}});
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.fixed_components, 1) << describe_blocked(plan);
  const std::string out = p.fixed(plan, 0);
  // 64 on AMD, the CUDA original on the way back (the added conditional is recorded).
  EXPECT_NE(
      out.find("#if defined(__HIP_PLATFORM_AMD__) " + std::string(rewrite::record::kAdded) +
               "\n#define WARP_SIZE 64  // ferry: wavefront width of gfx906\n#else\n#define WARP_SIZE 32\n#endif\n"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("threadIdx.x % WARP_SIZE"), std::string::npos) << out;  // its uses stay
  EXPECT_FALSE(plan.files.at("t.cu").fixed.empty());
}

// ---- host_launches.cpp --------------------------------------------------------------------------

TEST(Wave64PlanHostLaunches, WarpArithmeticInTheLauncherRulesOutTheWarpSizeForm) {
  Project p(Sources{{"t.cu", R"(
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  x[threadIdx.x] = v;
}
void run(float* x, int n) { k<<<n / 32, 256>>>(x); }
)"}});
  // `n / 32` next to the launch: a count of warps the warpSize form would leave at 32 lanes, so the
  // policy (policy.cpp) takes the logical form and says why.
  const Wave64FixPlan plan = p.plan();
  EXPECT_EQ(plan.stats.logical_components, 1);
  const Wave64FilePlan& fp = plan.files.at("t.cu");
  ASSERT_FALSE(fp.fixed_how.empty());
  EXPECT_NE(fp.fixed_how.begin()->second.find("because t.cu:7: host code that launches the component computes with 32"),
            std::string::npos)
      << fp.fixed_how.begin()->second;
  EXPECT_NE(p.fixed(plan, 0).find("k<<<n / 32, 256>>>"), std::string::npos);  // the host code stays
}

TEST(Wave64PlanHostLaunches, OnlyLaunchesInDirectivesAreMacroLaunches) {
  // "<<<" in a comment, a string and `<<<<` begins no launch token inside a directive; the launch
  // in the #define does, and its block size (96) cannot be checked there: it blocks the component.
  const std::string kernel = R"(
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  x[threadIdx.x] = v;
}
// k<<<1, 96>>>(x) in a comment
const char* s = "k<<<1, 96>>>";
#define SHIFTED(a) ((a) <<<< 2)
void run(float* x) { k<<<1, 256>>>(x); }
)";
  const Wave64FixPlan plain = Project(Sources{{"t.cu", kernel}}).plan();
  EXPECT_EQ(plain.stats.fixed_components, 1) << describe_blocked(plain);
  EXPECT_EQ(plain.stats.logical_components, 0);  // the warpSize form: nothing stood in its way
  const Wave64FixPlan in_macro = Project(Sources{{"t.cu", kernel + "#define LAUNCH(x) k<<<1, 96>>>(x)\n"}}).plan();
  EXPECT_EQ(in_macro.stats.components, 1);
  EXPECT_EQ(in_macro.stats.logical_components, in_macro.stats.fixed_components);  // not the warpSize form
  std::string why = describe_blocked(in_macro);
  for (const auto& [key, how] : in_macro.files.at("t.cu").fixed_how) why += how + "\n";
  EXPECT_NE(why.find("t.cu:11: a kernel of the component ('k') may be launched inside a macro"), std::string::npos)
      << why;
}

// ---- macro_uses.cpp -----------------------------------------------------------------------------

TEST(Wave64PlanMacroUses, InsideConditionalSeesIfsButNotTheIncludeGuard) {
  Project p(Sources{{"t.h", R"(#ifndef T_H
#define T_H
#define A 1
#ifdef USE_B
#define B 2
#endif
#endif
)"}});
  const Tokens v = p.tokens(0);
  std::vector<std::size_t> defines;
  for (std::size_t ci = 0; ci + 1 < v.size(); ++ci)
    if (v.is(ci, "#") && v.is(ci + 1, "define")) defines.push_back(ci);
  ASSERT_EQ(defines.size(), 3u);
  EXPECT_FALSE(inside_conditional(v, defines[1]));  // `#define A`: only the guard around it
  EXPECT_TRUE(inside_conditional(v, defines[2]));   // `#define B` under #ifdef USE_B
}

// ---- flat_lists.h (the links of link()) -------------------------------------------------------

TEST(Wave64PlanFlatLists, ListsOpenedInOrderReadBackAndKeepFirstSeen) {
  FlatLists<std::uint32_t> lists;
  std::vector<bool> seen(10, false);
  lists.open();  // 0: empty
  lists.open();  // 1: 3 1 3 2 1 -> 3 1 2
  for (std::uint32_t v : {3, 1, 3, 2, 1}) lists.add(v);
  lists.keep_first_seen(seen);
  lists.open();  // 2: 7 7
  lists.add(7);
  lists.add(7);
  lists.keep_first_seen(seen);
  lists.shrink();
  ASSERT_EQ(lists.size(), 3u);
  EXPECT_TRUE(lists[0].empty());
  EXPECT_EQ(std::vector<std::uint32_t>(lists[1].begin(), lists[1].end()), (std::vector<std::uint32_t>{3, 1, 2}));
  EXPECT_EQ(std::vector<std::uint32_t>(lists[2].begin(), lists[2].end()), (std::vector<std::uint32_t>{7}));
  EXPECT_EQ(seen, std::vector<bool>(10, false));  // left all false
}

TEST(Wave64PlanFlatLists, BuildTransposesPairsInTheOrderEmitted) {
  // callers from callees: 0 -> {2}, 1 -> {2, 0}, 2 -> {}
  FlatLists<std::uint32_t> callers;
  const std::vector<std::vector<std::uint32_t>> callees{{2}, {2, 0}, {}};
  callers.build(3, [&](const auto& emit) {
    for (std::uint32_t id = 0; id < callees.size(); ++id)
      for (std::uint32_t t : callees[id]) emit(t, id);
  });
  ASSERT_EQ(callers.size(), 3u);
  EXPECT_EQ(std::vector<std::uint32_t>(callers[0].begin(), callers[0].end()), (std::vector<std::uint32_t>{1}));
  EXPECT_TRUE(callers[1].empty());
  EXPECT_EQ(std::vector<std::uint32_t>(callers[2].begin(), callers[2].end()), (std::vector<std::uint32_t>{0, 1}));
}

// ---- tokens on demand (a tree) ------------------------------------------------------------------

// Everything a plan decides, as text, to compare two plans.
std::string describe(const Wave64FixPlan& plan) {
  std::string out;
  for (const auto& [key, fp] : plan.files) {
    out += "file " + key + "\n";
    for (const Wave64ByteEdit& e : fp.edits)
      out += " edit " + std::to_string(e.begin) + "-" + std::to_string(e.end) + " " + e.text + "\n";
    for (const auto& [code, at] : fp.fixed)
      out += " fixed " + std::string(to_string(code)) + "@" + std::to_string(at) + "\n";
    for (const auto& [k, why] : fp.unfixed)
      out += " unfixed " + std::string(to_string(k.first)) + "@" + std::to_string(k.second) + " " + why + "\n";
    for (const auto& [code, at] : fp.harmless)
      out += " harmless " + std::string(to_string(code)) + "@" + std::to_string(at) + "\n";
    for (const auto& [k, how] : fp.fixed_how) out += " how " + std::to_string(k.second) + " " + how + "\n";
    for (std::uint32_t at : fp.widened_vars) out += " widened " + std::to_string(at) + "\n";
    for (std::uint32_t at : fp.widened_calls) out += " widened call " + std::to_string(at) + "\n";
  }
  for (const std::string& b : plan.blocked) out += "blocked " + b + "\n";
  out +=
      "components " + std::to_string(plan.stats.components) + " fixed " + std::to_string(plan.stats.fixed_components);
  return out;
}

TEST(Wave64PlanOnDemand, LexingFilesWhenReadPlansTheSame) {
  // A project larger than what the planner keeps lexed (256 KiB of source): 24 files of ~64 KiB,
  // with components across files (a header's helper, a host launcher in another file, a WMMA
  // kernel, a logical-form kernel), so files are dropped and lexed again while planning.
  const std::string pad = "// " + std::string(64 * 1024, 'x') + "\n";
  Sources srcs{{"inc/reduce.cuh", std::string(kReduceHeader) + pad}};
  for (int i = 0; i < 20; ++i)
    srcs.push_back({"src/plain" + std::to_string(i) + ".cu",
                    pad + "__global__ void plain" + std::to_string(i) + "(int* x) { x[threadIdx.x / 32] = 1; }\n"});
  srcs.push_back({"src/main.cu", R"(#include "../inc/reduce.cuh"
#include <mma.h>
using namespace nvcuda;
__global__ void k(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]); }
__global__ void odd(float* x) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) x[threadIdx.x / 32] = v;
}
__global__ void tc(half* a, float* c) {
  int warp = threadIdx.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::load_matrix_sync(fa, a + warp * 256, 16);
}
void launch_tc(half* a, float* c);
)" + pad});
  srcs.push_back({"src/host.cu", pad + R"(#include "main.cu"
void run(float* x) { k<<<1, 256>>>(x); odd<<<1, 96>>>(x); }
void launch_tc(half* a, float* c) { tc<<<1, 128>>>(a, c); }
)"});
  srcs.push_back({"src/last.cu", pad + "__global__ void last(int* x) { x[threadIdx.x & 31] = 0; }\n"});
  Project p(srcs);
  Wave64FixOptions cuda_out;
  cuda_out.fix_masks = cuda_out.cuda_output = true;
  for (const Wave64FixOptions& o : {Wave64FixOptions{}, cuda_out}) {
    std::size_t loads = 0;
    const Wave64FixPlan lazy = p.plan_lexing_on_demand(loads, o);
    EXPECT_EQ(describe(lazy), describe(p.plan(o)));
    EXPECT_GE(loads, srcs.size());      // every file read at least once
    EXPECT_LE(loads, 4 * srcs.size());  // and not once per function or per component
    // k and odd share their host launcher (logical form, 96 threads); tc takes the WMMA form
    EXPECT_EQ(lazy.stats.components, 2);
    EXPECT_EQ(lazy.stats.fixed_components, o.cuda_output ? 1 : 2);  // the WMMA form is for HIP output only
    std::size_t relexed = 0, reads = 0;
    EXPECT_EQ(describe(p.plan_reading_facts(relexed, reads, o)), describe(lazy));
    EXPECT_GE(reads, srcs.size());      // every file's facts read at least once
    EXPECT_LE(reads, 4 * srcs.size());  // and let go after the file's sweep, or its component
  }
}

TEST(Wave64PlanOnDemand, ReadingFactsWhenReadPlansTheSame) {
  // Warp-width constants across files (one derived from another in a second header, a file with
  // its own definition), lane helpers, a mask helper and harmless device code: everything the
  // project graph takes from the facts before it lets them go.
  Project p(Sources{{"inc/warp.h", "#pragma once\n#define WARP_SIZE 32\n"},
                    {"inc/derived.h", "#pragma once\n#include \"warp.h\"\n#define HALF_WARP (WARP_SIZE / 2)\n"},
                    {"src/a.cu", R"(#include "../inc/derived.h"
__device__ int lane_id() { return threadIdx.x & 31; }
__device__ unsigned lane_bit() { return 1u << lane_id(); }
__global__ void a(float* x) {
  float v = x[threadIdx.x];
  for (int o = HALF_WARP; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if (lane_id() == 0) x[threadIdx.x / WARP_SIZE] = v;
}
__global__ void plain(int* x) { x[threadIdx.x / 32] = 1; }
void run(float* x) { a<<<1, 256>>>(x); }
)"},
                    {"src/b.cu", R"(#define WARP_SIZE 32
__global__ void b(float* x) {
  int lane = threadIdx.x % WARP_SIZE;
  float v = __shfl_down_sync(0xffffffff, x[lane], 16);
  x[lane] = v;
}
)"}});
  std::size_t loads = 0, reads = 0;
  const Wave64FixPlan held = p.plan();
  EXPECT_EQ(describe(p.plan_reading_facts(loads, reads)), describe(held));
  EXPECT_GE(held.stats.components, 2);
  EXPECT_GE(reads, 4u);
  // With the heads read alone (the constants' names before the sweep): the same plan, one head
  // per file, and the facts kept between sweeps (four small files fit the planner's budget).
  std::size_t heads = 0, reads_with_heads = 0;
  EXPECT_EQ(describe(p.plan_reading_facts(loads, reads_with_heads, {}, &heads)), describe(held));
  EXPECT_EQ(heads, p.srcs.size());
  EXPECT_EQ(reads_with_heads, p.srcs.size());
}

TEST(Wave64PlanOnDemand, AFileOfManyComponentsIsUnpackedOnce) {
  // One file, many components (each kernel its own): the planner reads the file's facts once and
  // keeps them through every sweep and component (the last file read always stays), where it
  // used to read them again for each component.
  std::string text;
  for (int i = 0; i < 12; ++i)
    text += "__global__ void k" + std::to_string(i) +
            "(float* x) {\n  float v = x[threadIdx.x];\n"
            "  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n"
            "  x[threadIdx.x] = v;\n}\n"
            "void run" +
            std::to_string(i) + "(float* x) { k" + std::to_string(i) + "<<<1, 256>>>(x); }\n";
  Project p(Sources{{"many.cu", text}});
  std::size_t loads = 0, reads = 0, heads = 0;
  const Wave64FixPlan held = p.plan();
  EXPECT_EQ(held.stats.components, 12);
  EXPECT_EQ(describe(p.plan_reading_facts(loads, reads, {}, &heads)), describe(held));
  EXPECT_EQ(heads, 1u);
  EXPECT_EQ(reads, 1u);
}

TEST(Wave64PlanOnDemand, FactsPastTheBudgetAreReadAgainNotHeld) {
  // 40 files whose facts together pass the planner's budget (kFactsBytes, 256 KiB): each file's
  // facts are let go and read again, and the plan is the same as with every file's facts held.
  Sources srcs;
  for (int f = 0; f < 40; ++f) {
    std::string text =
        "__global__ void k(float* x) {\n  float v = x[threadIdx.x];\n"
        "  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n"
        "  x[threadIdx.x] = v;\n}\n";
    for (int c = 0; c < 400; ++c)  // ~100 bytes of heap per constant: ~40 KiB per file
      text += "#define CONSTANT_OF_A_LONG_NAME_" + std::to_string(c) + " " + std::to_string(c) + "\n";
    srcs.push_back({"p" + std::to_string(f) + "/k.cu", text});
  }
  Project p(srcs);
  std::size_t loads = 0, reads = 0, heads = 0;
  const Wave64FixPlan held = p.plan();
  EXPECT_EQ(describe(p.plan_reading_facts(loads, reads, {}, &heads)), describe(held));
  EXPECT_EQ(heads, srcs.size());
  EXPECT_GT(reads, srcs.size());      // let go past the budget
  EXPECT_LE(reads, 4 * srcs.size());  // but not read once per function
}

TEST(Wave64PlanOnDemand, TheHipPrePassPlansAsTheHeldFactsDo) {
  // The hip target's pre-pass (targets/hip wave64_scan) over a tree: facts spooled and read by
  // head, those of files that name another file's constant collected again (a.cu, e.cu; c.cu
  // names WARP_SIZE in a comment only), the last file's kept unpacked and lent to the planner.
  // Its plan is the one the planner makes from every file's facts held with the project's constants.
  const Sources srcs{{"inc/warp.h", "#pragma once\n#define WARP_SIZE 32\n"},
                     {"inc/derived.h", "#pragma once\n#include \"warp.h\"\n#define HALF_WARP (WARP_SIZE / 2)\n"},
                     {"src/a.cu", R"(#include "../inc/derived.h"
__global__ void a(float* x) {
  float v = x[threadIdx.x];
  for (int o = HALF_WARP; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) x[threadIdx.x / WARP_SIZE] = v;
}
void run(float* x) { a<<<1, 256>>>(x); }
)"},
                     {"src/c.cu", R"(// not WARP_SIZE: 32 lanes
__global__ void c(float* x) {
  float v = __shfl_down_sync(0xffffffff, x[threadIdx.x], 16);
  x[threadIdx.x % 32] = v;
}
)"},
                     {"src/d.cu", "__global__ void d(int* x) { x[threadIdx.x] = 0; }\n"},
                     {"src/e.cu", R"(#include "../inc/warp.h"
__global__ void e(float* x) { x[threadIdx.x] = __shfl_xor_sync(0xffffffff, x[threadIdx.x], WARP_SIZE / 2); }
)"}};
  Project p(srcs);
  const std::string held = describe(p.plan());
  for (const bool read : {false, true}) {
    targets::ProjectContext ctx;
    std::vector<targets::SourceView> views;
    for (const auto& [path, text] : srcs) {
      views.push_back({path, read ? std::string_view() : std::string_view(text)});
      if (read) views.back().read = [text = text] { return text; };
    }
    p.target->prepare_project(views, ctx);
    ASSERT_TRUE(ctx.wave64_fixes);
    EXPECT_EQ(describe(*ctx.wave64_fixes), held) << (read ? "read" : "text");
    EXPECT_GE(ctx.wave64_fixes->stats.fixed_components, 2);
  }
}

// ---- site_fixes.cpp (the workbench's apply-fix) ---------------------------------------------------

// The text of file `i` with the edits of one site fix applied.
std::string with_site_fix(const Project& p, std::size_t i, const Wave64SiteFix& f) {
  std::string out = p.srcs[i].second;
  for (auto e = f.edits.rbegin(); e != f.edits.rend(); ++e) out.replace(e->begin, e->end - e->begin, e->text);
  return out;
}

TEST(Wave64PlanSiteFixes, AFixableComponentIsFixedWholeFromAnyOfItsHazards) {
  Project p(Sources{{"t.cu", R"(#define WARP_SIZE 32
__global__ void k(float* o, int n) {
  int lane = threadIdx.x % WARP_SIZE;
  float v = o[threadIdx.x];
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);
  for (int i = lane; i < n; i += WARP_SIZE) o[i] = v;
}
)"}});
  Wave64FixOptions o;
  o.site_fixes_of = "t.cu";
  const Wave64FixPlan plan = p.plan(o);
  const Wave64FilePlan& fp = plan.files.at("t.cu");
  ASSERT_EQ(fp.site_fixes.size(), 2u);  // the constant (FRY2204) and the loop (FRY2205)
  for (const auto& [anchor, fix] : fp.site_fixes) {
    EXPECT_TRUE(fix.whole_component);
    EXPECT_EQ(fix.edits.size(), fp.edits.size());  // the same edits as the whole plan's
    const std::string out = with_site_fix(p, 0, fix);
    EXPECT_NE(out.find("#if defined(__HIP_PLATFORM_AMD__) /* ferry-cuda: (none) */\n#define WARP_SIZE 64"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("#else\n#define WARP_SIZE 32\n#endif\n"), std::string::npos) << out;
    EXPECT_NE(out.find("for (int d = (warpSize / 2) /* ferry-cuda: 16 */; d > 0; d >>= 1)"), std::string::npos) << out;
  }
  // Without site_fixes_of the plan is the same and has none.
  const Wave64FixPlan whole = p.plan();
  EXPECT_TRUE(whole.files.at("t.cu").site_fixes.empty());
  EXPECT_EQ(whole.files.at("t.cu").edits.size(), fp.edits.size());
}

TEST(Wave64PlanSiteFixes, ABlockedComponentOffersTheReductionOnItsOwnWithTheReason) {
  Project p(Sources{{"t.cu", R"(__device__ float sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__global__ void k(float* x, int* idx) {
  float v = sum(x[threadIdx.x]);
  idx[threadIdx.x] = (threadIdx.x & 31) * 17 + 31;
  asm volatile("bar.sync 0;");
  x[threadIdx.x] = v;
}
)"}});
  Wave64FixOptions o;
  o.site_fixes_of = "t.cu";
  const Wave64FixPlan plan = p.plan(o);
  const Wave64FilePlan& fp = plan.files.at("t.cu");
  ASSERT_FALSE(plan.blocked.empty());
  EXPECT_TRUE(fp.edits.empty());
  ASSERT_EQ(fp.site_fixes.size(), 1u);
  const Wave64SiteFix& fix = fp.site_fixes.begin()->second;
  EXPECT_EQ(fp.site_fixes.begin()->first.first, Diag::ShuffleLoop32);
  EXPECT_FALSE(fix.whole_component);
  EXPECT_FALSE(fix.left.empty());
  EXPECT_NE(with_site_fix(p, 0, fix).find("for (int o = (warpSize / 2) /* ferry-cuda: 16 */; o > 0; o >>= 1)"),
            std::string::npos);
}

TEST(Wave64PlanSiteFixes, AConstantUsedOtherwiseInAnotherFileHasNoFix) {
  Project p(Sources{{"h.cuh", "#define WARP_SIZE 32\n"}, {"u.cu", R"(#include "h.cuh"
__global__ void k(unsigned* o, float* x) {
  o[0] = 1u << WARP_SIZE;
  float v = x[threadIdx.x];
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);
  x[threadIdx.x % WARP_SIZE] = v;
}
)"}});
  EXPECT_TRUE(p.uses.other_use.count("WARP_SIZE"));
  Wave64FixOptions o;
  o.site_fixes_of = "h.cuh";
  const Wave64FixPlan plan = p.plan(o);
  const auto fp = plan.files.find("h.cuh");
  if (fp != plan.files.end()) {
    EXPECT_TRUE(fp->second.site_fixes.empty());
    EXPECT_TRUE(fp->second.edits.empty());
  }
}

TEST(Wave64PlanSiteFixes, AReductionWhoseOffsetIsUsedOtherwiseHasNoFix) {
  Project p(Sources{{"t.cu", R"(__device__ float c(float v, float* log) {
  for (int o = 16; o > 0; o /= 2) { v += __shfl_down_sync(0xffffffff, v, o); log[o] = v; }
  return v;
}
)"}});
  Wave64FixOptions o;
  o.site_fixes_of = "t.cu";
  const Wave64FixPlan plan = p.plan(o);
  // log[o] would be written at 32 on wave64: neither the warpSize form nor a site fix.
  const auto fp = plan.files.find("t.cu");
  if (fp != plan.files.end()) {
    EXPECT_TRUE(fp->second.site_fixes.empty());
  }
  EXPECT_EQ(p.fixed(plan, 0).find("warpSize / 2"), std::string::npos) << p.fixed(plan, 0);
}

// ---- hints.h ------------------------------------------------------------------------------------

TEST(Wave64PlanHints, TheWmmaFormIsToldApartByItsStart) {
  EXPECT_TRUE(wave64_hints::wmma_doubled().starts_with(kWmmaDoubledHow));
  EXPECT_NE(wave64_hints::logical("a.cu:3: why").find("because a.cu:3: why;"), std::string::npos);
  EXPECT_EQ(wave64_hints::blocked("a.cu:3: why", false, "", "no"), "a.cu:3: why; as 32-lane halves: no");
  EXPECT_NE(wave64_hints::blocked("a.cu:3: why", true, "d", "").find("with a doubled block: d"), std::string::npos);
}

}  // namespace
}  // namespace ferry::analysis::wave64_plan
