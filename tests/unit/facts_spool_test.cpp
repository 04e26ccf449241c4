// Unit tests of analysis/facts_spool (files' facts packed into a temporary file and read back) and
// of core/byte_spool under it.
#include "analysis/facts_spool.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "targets/target.h"

namespace ferry::analysis {
namespace {

// Every field of the facts, as text (project_constants as whether it is set).
std::string describe(const FileFacts& f) {
  std::string out;
  for (const FunctionInfo& fn : f.functions) {
    out += "fn " + fn.name + " " + std::to_string(fn.name_ci) + " " + std::to_string(fn.body_open) + " " +
           std::to_string(fn.body_close) + " k" + std::to_string(fn.is_kernel) + " d" + std::to_string(fn.is_device) +
           " h" + std::to_string(fn.is_host) + " lb" + (fn.launch_bounds ? std::to_string(*fn.launch_bounds) : "-") +
           "@" + (fn.launch_bounds_ci == migrate::npos ? "npos" : std::to_string(fn.launch_bounds_ci)) + "\n";
    for (const auto& [name, value] : fn.local_constants) out += "  local " + name + "=" + std::to_string(value) + "\n";
    for (const VarDef& d : fn.defs)
      out += "  def " + d.name + "@" + std::to_string(d.at) + " t" + std::to_string(d.taint) + "\n";
  }
  for (const auto& [name, c] : f.constants)
    out += "const " + name + "=" + std::to_string(c.value) + " " + std::to_string(c.name_ci) + " " +
           std::to_string(c.first_ci) + "-" + std::to_string(c.last_ci) + (c.is_macro ? " macro" : "") + "\n";
  for (const std::string& h : f.lane_helpers) out += "lane helper " + h + "\n";
  for (const std::string& h : f.thread_helpers) out += "thread helper " + h + "\n";
  out += f.project_constants ? "project constants\n" : "";
  return out;
}

FileFacts facts_of(const std::string& text) {
  targets::Options options;
  targets::ProjectContext ctx;
  const auto target = targets::make_target("hip", options);
  const migrate::FileMigration file("t.cu", text, *target, options, ctx);
  return collect_facts(file);
}

constexpr const char* kKernel = R"(#define WARP_SIZE 32
#define NEGATIVE (-5)
#define BIG 0x7fffffffffffffff
constexpr int kTile = WARP_SIZE * 4;
__device__ int lane_id() { return threadIdx.x & (WARP_SIZE - 1); }
__device__ int tid() { return threadIdx.x; }
__global__ void __launch_bounds__(256) k(float* x, unsigned* m) {
  const int lanes = 16;
  int lane = lane_id();
  int warp = threadIdx.x / WARP_SIZE;
  unsigned b = __ballot_sync(0xffffffff, x[lane] > 0);
  m[warp] = b;
  x[lane] += lanes;
}
__host__ __device__ float plain(float a) { return a * 2; }
)";

TEST(FactsSpool, PackedFactsReadBackFieldByField) {
  const FileFacts facts = facts_of(kKernel);
  // the sample has every kind of field (else the test proves less than it says)
  ASSERT_EQ(facts.functions.size(), 4u);
  ASSERT_TRUE(facts.functions[2].launch_bounds.has_value());
  ASSERT_FALSE(facts.functions[2].local_constants.empty());
  ASSERT_FALSE(facts.functions[2].defs.empty());
  ASSERT_EQ(facts.constants.at("NEGATIVE").value, -5);
  ASSERT_EQ(facts.constants.at("BIG").value, 0x7fffffffffffffffLL);
  ASSERT_FALSE(facts.lane_helpers.empty());
  ASSERT_FALSE(facts.thread_helpers.empty());
  const std::string before = describe(facts);
  EXPECT_EQ(describe(unpack_facts(pack_facts(facts))), before);
  // the pack is smaller than the text it was computed from
  EXPECT_LT(pack_facts(facts).size(), std::string(kKernel).size());
}

TEST(FactsSpool, EmptyFactsAndExtremeValuesReadBack) {
  FileFacts facts;
  EXPECT_EQ(describe(unpack_facts(pack_facts(facts))), "");
  FunctionInfo fn;
  fn.name = "f";
  fn.launch_bounds = -9223372036854775807LL - 1;
  fn.launch_bounds_ci = 0;
  fn.local_constants = {{"lo", -1}, {"hi", 9223372036854775807LL}};
  fn.defs = {{"v", 3, 7}};
  facts.functions.push_back(fn);
  facts.constants["Z"] = ConstantInfo{0, 0, 0, 0, true};
  std::map<std::string, long long> project;
  facts.project_constants = &project;  // not packed: the reader sets it again
  FileFacts back = unpack_facts(pack_facts(facts));
  EXPECT_EQ(back.project_constants, nullptr);
  back.project_constants = &project;
  EXPECT_EQ(describe(back), describe(facts));
}

TEST(FactsSpool, DamagedBytesAreAnErrorNotAGuess) {
  const std::string packed = pack_facts(facts_of(kKernel));
  EXPECT_THROW((void)unpack_facts(std::string_view(packed).substr(0, packed.size() / 2)), std::runtime_error);
}

TEST(FactsSpool, PutGetAndReplaceById) {
  FactsSpool spool;
  const FileFacts a = facts_of(kKernel);
  const FileFacts b = facts_of("#define ONE 1\nvoid g() {}\n");
  EXPECT_EQ(spool.put(a), 0u);
  EXPECT_EQ(spool.put(b), 1u);
  EXPECT_EQ(spool.size(), 2u);
  EXPECT_EQ(describe(spool.get(1)), describe(b));
  EXPECT_EQ(describe(spool.get(0)), describe(a));
  spool.replace(0, b);
  EXPECT_EQ(describe(spool.get(0)), describe(b));
  EXPECT_EQ(describe(spool.get(1)), describe(b));
  EXPECT_THROW((void)spool.get(2), std::out_of_range);
}

// The head (function count, constants' names) as text.
std::string describe(const FactsHead& h) {
  std::string out = std::to_string(h.functions) + " functions;";
  for (const std::string& name : h.constant_names) out += " " + name;
  return out;
}

TEST(FactsSpool, TheHeadIsReadFromTheFirstBytesAlone) {
  const FileFacts facts = facts_of(kKernel);
  const std::string packed = pack_facts(facts);
  const FactsHead h = head_of(facts);
  EXPECT_EQ(describe(h), "4 functions; BIG NEGATIVE WARP_SIZE kTile");  // the constants' sorted names
  const std::size_t size = head_size(packed);
  EXPECT_GT(size, 0u);
  EXPECT_LT(size, packed.size());
  // the first head_size bytes are enough, and the whole pack reads the same
  EXPECT_EQ(describe(unpack_head(std::string_view(packed).substr(0, size))), describe(h));
  EXPECT_EQ(describe(unpack_head(packed)), describe(h));
  EXPECT_THROW((void)unpack_head(std::string_view(packed).substr(0, size - 1)), std::runtime_error);
  EXPECT_TRUE(h.defines("WARP_SIZE"));
  EXPECT_TRUE(h.defines("kTile"));
  EXPECT_FALSE(h.defines("WARP"));
  EXPECT_FALSE(h.defines("lane_id"));  // a function, no constant
  EXPECT_EQ(describe(head_of(FileFacts{})), "0 functions;");
  EXPECT_EQ(describe(unpack_head(pack_facts(FileFacts{}))), "0 functions;");
}

TEST(FactsSpool, HeadsByIdFollowReplace) {
  FactsSpool spool;
  const FileFacts a = facts_of(kKernel);
  const FileFacts b = facts_of("#define ONE 1\nvoid g() {}\n");
  spool.put(a);
  spool.put(b);
  EXPECT_EQ(describe(spool.head(0)), describe(head_of(a)));
  EXPECT_EQ(describe(spool.head(1)), "1 functions; ONE");
  spool.replace(0, b);
  EXPECT_EQ(describe(spool.head(0)), "1 functions; ONE");
  EXPECT_EQ(describe(spool.get(0)), describe(b));  // the rest of the pack after its head
  EXPECT_THROW((void)spool.head(2), std::out_of_range);
}

TEST(FactsSpool, HeapBytesCountWhatTheFactsHold) {
  const FileFacts empty;
  EXPECT_EQ(heap_bytes(empty), sizeof(FileFacts));
  const FileFacts facts = facts_of(kKernel);
  const std::size_t bytes = heap_bytes(facts);
  EXPECT_GE(bytes, sizeof(FileFacts) + facts.functions.size() * sizeof(FunctionInfo) +
                       facts.constants.size() * sizeof(std::pair<const std::string, ConstantInfo>));
  FileFacts more = facts;
  more.lane_helpers.insert(std::string(100, 'h'));  // a name too long for the string's own buffer
  EXPECT_GE(heap_bytes(more), bytes + sizeof(std::string) + 101);
}

TEST(ByteSpool, SpansReadBackWholeAndInParts) {
  ByteSpool spool("the test's bytes");
  const std::string big(200 * 1024 + 7, 'q');
  const auto a = spool.add("first");
  const auto b = spool.add(big);
  const auto c = spool.add("");
  EXPECT_EQ(spool.read(b), big);
  EXPECT_EQ(spool.read(a), "first");
  EXPECT_EQ(spool.read(c), "");
  std::vector<std::size_t> parts;
  std::string whole;
  spool.read(b, [&](std::string_view part) {
    parts.push_back(part.size());
    whole += part;
  });
  EXPECT_EQ(whole, big);
  EXPECT_EQ(parts.size(), 4u);                                  // 64 KiB at a time
  EXPECT_EQ(spool.add("after a read").offset, 5 + big.size());  // appends after every span
}

}  // namespace
}  // namespace ferry::analysis
