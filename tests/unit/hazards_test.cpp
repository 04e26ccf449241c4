// Unit tests of analysis/hazards: the dataflow (which variables hold thread ids, lane ids, warp
// indices, ballots), the constant evaluator, and what the checks report (they never edit: the
// fixes are the wave64 planner's, tests/unit/wave64_plan_test.cpp).
#include "analysis/hazards.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "targets/target.h"

namespace ferry::analysis {
namespace {

struct Fixture {
  explicit Fixture(std::string src) : text(std::move(src)) {
    target = targets::make_target("hip", options);
    file = std::make_unique<migrate::FileMigration>("t.cu", text, *target, options, project);
  }
  std::string text;
  targets::Options options;
  targets::ProjectContext project;
  std::unique_ptr<targets::Target> target;
  std::unique_ptr<migrate::FileMigration> file;
};

TEST(Names, IdentifiersWhereAsksEachNameOnceInFileOrder) {
  const lex::CodeView v("b a ( b , c ) a ; d b");
  std::vector<std::string> asked;
  const std::vector<std::size_t> at = detail::identifiers_where(v, [&](std::string_view n) {
    asked.emplace_back(n);
    return n == "b" || n == "a";
  });
  EXPECT_EQ(asked, (std::vector<std::string>{"b", "a", "c", "d"}));
  // the chosen names' occurrences, merged in file order
  EXPECT_EQ(at, (std::vector<std::size_t>{0, 1, 3, 7, 10}));
  EXPECT_TRUE(detail::identifiers_where(v, [](std::string_view) { return false; }).empty());
}

const FunctionInfo* find_fn(const FileFacts& f, std::string_view name) {
  for (const FunctionInfo& fn : f.functions)
    if (fn.name == name) return &fn;
  return nullptr;
}

std::vector<std::string> codes(migrate::FileMigration& f) {
  std::vector<std::string> out;
  for (const Diagnostic& d : f.diagnostics())
    out.push_back(std::to_string(d.line) + " " + std::string(to_string(d.code)));
  return out;
}

HazardOptions gfx906() {
  HazardOptions o;
  o.profile = find_profile("gfx906");
  return o;
}

TEST(HazardsDataflow, ThreadLaneAndWarpVariables) {
  Fixture fx(R"(
__global__ void k(int n, unsigned hash) {
  int tid = threadIdx.x;
  int lane = tid & 31;
  int warp = tid / 32;
  int w2 = warp;
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int nb = hash & 31;
  int size = n;
}
)");
  const FileFacts facts = collect_facts(*fx.file);
  const FunctionInfo* k = find_fn(facts, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->is_kernel);
  EXPECT_TRUE(k->is_thread_var("tid"));
  EXPECT_TRUE(k->is_lane_var("lane"));
  EXPECT_TRUE(k->is_lane_var("warp"));
  EXPECT_TRUE(k->is_lane_var("w2"));      // through a plain copy
  EXPECT_FALSE(k->is_lane_var("tid"));    // a thread id, not yet a lane id
  EXPECT_FALSE(k->is_thread_var("gid"));  // blockIdx makes it a data index
  EXPECT_FALSE(k->is_thread_var("nb"));
  EXPECT_FALSE(k->is_thread_var("size"));
}

// collect_facts' helpers and definitions as the plain fixpoint computes them: every function
// again in every round (at most three), then all again when the rounds ran out.
void plain_fixpoint(const migrate::FileMigration& v, FileFacts& facts) {
  facts.lane_helpers.clear();
  facts.thread_helpers.clear();
  for (FunctionInfo& fn : facts.functions) fn.defs.clear();
  bool settled = false;
  for (int round = 0; round < 3 && !settled; ++round) {
    bool changed = false;
    for (FunctionInfo& fn : facts.functions) {
      fn.defs = function_defs(v, facts, fn);
      for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
        if (!v.is(i, "return")) continue;
        const unsigned t = range_taint(v, facts, fn.defs, i + 1, detail::expression_last(v, i + 1, fn.body_close - 1));
        if ((t & kLane) && facts.lane_helpers.insert(fn.name).second) changed = true;
        if ((t & kThread) && facts.thread_helpers.insert(fn.name).second) changed = true;
      }
    }
    settled = !changed;
  }
  if (!settled)
    for (FunctionInfo& fn : facts.functions) fn.defs = function_defs(v, facts, fn);
}

// collect_facts computes a function again only when a name of its body became a helper: the same
// facts as the plain fixpoint, whatever the order of the functions (helpers defined after their
// callers need more rounds; a chain longer than the rounds is cut short) and with recursion.
TEST(HazardsDataflow, HelperFixpointComputesOnlyWhatAHelperChanged) {
  std::vector<std::string> fns = {
      "__device__ int a1() { return threadIdx.x & 31; }\n",
      "__device__ int a2() { int v = a1(); return v; }\n",
      "__device__ int a3() { return a2() + 1; }\n",
      "__device__ int a4() { return a3(); }\n",
      "__device__ int rec(int n) { int m = rec(n - 1); return n ? m : threadIdx.x; }\n",
      "__device__ int t1() { return threadIdx.y; }\n",
      "__device__ int t2(int x) { int w = t1() / 32; return w; }\n",
      "__global__ void k(int* o) { int l = a4(); int r = rec(3); int q = t2(1) & 31; o[l] = r + q; }\n",
      "__device__ unsigned b() { return __ballot_sync(0xffffffff, 1); }\n",
      "int host(int z) { int y = z; return y; }\n",
  };
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    std::shuffle(fns.begin(), fns.end(), rng);
    std::string text;
    for (const std::string& f : fns) text += f;
    Fixture fx(text);
    const FileFacts facts = collect_facts(*fx.file);
    FileFacts plain = collect_facts(*fx.file);
    plain_fixpoint(*fx.file, plain);
    EXPECT_EQ(facts.lane_helpers, plain.lane_helpers) << text;
    EXPECT_EQ(facts.thread_helpers, plain.thread_helpers) << text;
    ASSERT_EQ(facts.functions.size(), plain.functions.size());
    for (std::size_t f = 0; f < facts.functions.size(); ++f) {
      const auto& a = facts.functions[f].defs;
      const auto& b = plain.functions[f].defs;
      ASSERT_EQ(a.size(), b.size()) << text;
      for (std::size_t d = 0; d < a.size(); ++d) {
        EXPECT_EQ(a[d].name, b[d].name);
        EXPECT_EQ(a[d].at, b[d].at);
        EXPECT_EQ(a[d].taint, b[d].taint) << a[d].name << " in " << text;
      }
    }
    if (HasFailure()) return;
  }
}

TEST(HazardsDataflow, LaneHelpersAndReachingDefinitions) {
  Fixture fx(R"(
__device__ int laneId() { return threadIdx.x % 32; }
__device__ int tid_of() { return threadIdx.x; }
__global__ void k(int* out, int n) {
  int l = laneId();
  int t = tid_of();
  int x = threadIdx.x;
  out[0] = x & 31;
  x = n;
  out[1] = x & 31;
  unsigned b = __ballot_sync(0xffffffff, n > 0);
  unsigned c = b & 7;
}
)");
  const FileFacts facts = collect_facts(*fx.file);
  EXPECT_TRUE(facts.lane_helpers.count("laneId"));
  EXPECT_TRUE(facts.thread_helpers.count("tid_of"));
  EXPECT_FALSE(facts.lane_helpers.count("tid_of"));
  const FunctionInfo* k = find_fn(facts, "k");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->is_lane_var("l"));
  EXPECT_TRUE(k->is_thread_var("t"));
  EXPECT_TRUE(k->is_ballot_var("b"));
  EXPECT_TRUE(k->is_ballot_var("c"));
  // x is a thread id at the first `& 31` and a size at the second: only the first fires.
  check_lane_arithmetic(*fx.file, facts, gfx906());
  EXPECT_EQ(codes(*fx.file), (std::vector<std::string>{"2 FRY2201", "8 FRY2201"}));
}

TEST(HazardsConstants, DefinesConstexprAndExpressions) {
  Fixture fx(R"(
#define WARP_SIZE 32
#define FULL_MASK 0xffffffff
#define TILE (WARP_SIZE * 4)
#define MAX(a, b) ((a) > (b) ? (a) : (b))
constexpr int kBytes = TILE * sizeof(float);
static constexpr unsigned kMask = ~0u;
#define TWICE 1
#define TWICE 2
)");
  const FileFacts facts = collect_facts(*fx.file);
  ASSERT_TRUE(facts.constants.count("WARP_SIZE"));
  EXPECT_EQ(facts.constants.at("WARP_SIZE").value, 32);
  EXPECT_EQ(facts.constants.at("FULL_MASK").value, 0xffffffffLL);
  EXPECT_EQ(facts.constants.at("TILE").value, 128);
  EXPECT_EQ(facts.constants.at("kBytes").value, 512);
  EXPECT_EQ(facts.constants.at("kMask").value, 0xffffffffLL);
  EXPECT_FALSE(facts.constants.count("MAX"));    // function-like macro
  EXPECT_FALSE(facts.constants.count("TWICE"));  // conflicting definitions are dropped
  EXPECT_EQ(warp_constant_names(*fx.file, facts), (std::vector<std::string>{"WARP_SIZE"}));
}

// collect_constants' fixpoint: a definition that reads a later one evaluates in a later round; one
// already in the table under its own definition is not evaluated again, and a conflict found in a
// later round still drops the name.
TEST(HazardsConstants, DefinitionsSettleAcrossRounds) {
  Fixture fx(R"(
#define A (B + 1)
#define B 2
#define D (E * 2)
#define E 3
#define D 6
#define F (G)
#define G 1
#define F 2
)");
  const FileFacts facts = collect_facts(*fx.file);
  EXPECT_EQ(facts.constants.at("A").value, 3);
  EXPECT_EQ(facts.constants.at("B").value, 2);
  ASSERT_TRUE(facts.constants.count("D"));  // two definitions of one value: not a conflict
  EXPECT_EQ(facts.constants.at("D").value, 6);
  EXPECT_EQ(facts.constants.at("G").value, 1);
  EXPECT_FALSE(facts.constants.count("F"));  // 2 in the first round, 1 in the second: conflicting
}

TEST(HazardsWarpConstants, AConstantUsedOtherwiseSaysWhere) {
  Fixture fx(R"(#define WARP_SIZE 32
#if WARP_SIZE == 32
typedef unsigned lane_mask_t;
#endif
__global__ void k(float* o) { o[threadIdx.x % WARP_SIZE] = (float)(1ull << WARP_SIZE); }
)");
  check_all(*fx.file, gfx906());
  EXPECT_TRUE(fx.file->edits().empty());  // the checks only report (the fixes are the planner's)
  ASSERT_EQ(fx.file->diagnostics().size(), 1u);
  EXPECT_EQ(fx.file->diagnostics()[0].severity, Severity::Warning);
  EXPECT_NE(fx.file->diagnostics()[0].hint.find("t.cu:2"), std::string::npos) << fx.file->diagnostics()[0].hint;
}

TEST(HazardsWarpConstants, UsesInOtherFilesAreRecorded) {
  Fixture header("#define WARP_SIZE 32\n");
  Fixture user("__global__ void k(unsigned* o) { o[0] = 1u << WARP_SIZE; }\n");
  WarpConstantUses uses;
  record_warp_constant_uses(*header.file, collect_facts(*header.file), uses);
  record_warp_constant_uses(*user.file, collect_facts(*user.file), uses);
  EXPECT_TRUE(uses.other_use.count("WARP_SIZE"));
}

TEST(HazardsShuffleLoops, LoopsWithWidthOrPartialMaskSayWhy) {
  Fixture fx(R"(__device__ float a(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o, 32);
  return v;
}
__device__ float b(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0x0000ffff, v, o);
  return v;
}
__device__ float c(float v, float* log) {
  for (int o = 16; o > 0; o /= 2) { v += __shfl_down_sync(0xffffffff, v, o); log[o] = v; }
  return v;
}
)");
  check_shuffle_loops(*fx.file, collect_facts(*fx.file), gfx906());
  EXPECT_TRUE(fx.file->edits().empty());
  EXPECT_EQ(codes(*fx.file), (std::vector<std::string>{"2 FRY2205", "6 FRY2205", "10 FRY2205"}));
  for (const Diagnostic& d : fx.file->diagnostics())
    EXPECT_NE(d.hint.find("not fixed automatically"), std::string::npos) << d.hint;
}

TEST(HazardsProfiles, Wave32ProfilesSkipTheWave64Checks) {
  Fixture fx(R"(#define WARP_SIZE 32
__global__ void k(int* o) {
  __shared__ float big[16384];
  o[threadIdx.x & 31] = (int)big[0];
}
)");
  HazardOptions o;
  o.profile = find_profile("sm_90");
  ASSERT_NE(o.profile, nullptr);
  EXPECT_FALSE(wave64_checks_apply(*o.profile));
  check_all(*fx.file, o);
  // 64 KiB of static shared memory is above sm_90's 48 KiB static limit; no lane findings.
  EXPECT_EQ(codes(*fx.file), (std::vector<std::string>{"2 FRY3201"}));
}

TEST(HazardsExclusion, MarkersSilenceFindings) {
  Fixture fx(R"(__global__ void k(int* o) {
  o[0] = threadIdx.x & 31;  // ferry: ignore
  o[1] = threadIdx.x & 31;
}
)");
  check_all(*fx.file, gfx906());
  EXPECT_EQ(codes(*fx.file), (std::vector<std::string>{"3 FRY2201"}));
}

}  // namespace
}  // namespace ferry::analysis

namespace ferry::analysis {
namespace {

// The check table names every hazard code of core/diagnostics.def once, and nothing else.
TEST(HazardCheckTable, EveryHazardCodeHasOneCheck) {
  std::map<std::string, int> seen;
  for (const Check& c : check_table()) {
    ASSERT_NE(c.run, nullptr) << c.name;
    std::string_view codes = c.codes;
    while (!codes.empty()) {
      const std::size_t sp = codes.find(' ');
      ++seen[std::string(codes.substr(0, sp))];
      codes = sp == std::string_view::npos ? std::string_view() : codes.substr(sp + 1);
    }
  }
  for (const DiagInfo& d : hazard_codes()) {
    const std::string id(d.id);
    EXPECT_EQ(seen[id], 1) << id << " is not reported by exactly one check of the table";
    seen.erase(id);
  }
  for (const auto& [id, n] : seen) ADD_FAILURE() << id << " in the check table is not a hazard code";
}

}  // namespace
}  // namespace ferry::analysis
