// Unit tests of the hip target's one scan of a buffer's function definitions (hip_provided.h:
// definition_scan, select_definitions): whatever names a caller wants, selecting from the scan
// gives what find_function_definitions' own walk gives.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lex/code_view.h"
#include "targets/hip/hip_provided.h"

namespace ferry::targets::hip {
namespace {

std::string as_written(std::string_view w) { return std::string(w); }

// What a definition is, as a comparable string: where it is, its name and parameters, its branch.
std::vector<std::string> shown(const std::vector<FunctionDefinition>& defs) {
  std::vector<std::string> out;
  for (const FunctionDefinition& d : defs)
    out.push_back(std::to_string(d.first) + " " + std::to_string(d.name) + " " + std::to_string(d.last) + " " +
                  std::to_string(d.open) + " " + std::to_string(d.close) + " " + d.signature() +
                  (d.platform_branch ? " platform" : ""));
  return out;
}

// The walk of find_function_definitions and the selection from the scan, for one filter.
void expect_same(const lex::CodeView& v, const std::set<std::string>& wanted, std::size_t excluded_mod,
                 const std::string& text) {
  const auto want = [&](const std::string& name) { return wanted.empty() || wanted.contains(name); };
  const auto excluded = [&](std::size_t ci) { return excluded_mod != 0 && ci % excluded_mod == 0; };
  const auto walked = find_function_definitions(v, excluded, as_written, as_written, want);
  const auto selected = select_definitions(v, excluded, as_written, want);
  EXPECT_EQ(shown(selected), shown(walked)) << text;
}

TEST(DefinitionScan, FindsEveryDefinitionOnceAndKeepsItWithTheTokens) {
  const lex::CodeView v(
      "namespace n {\n"
      "__device__ float atomicMax(float* p, float v) { return v; }\n"
      "}\n"
      "struct S { void m(int) {} };\n"
      "template <class T> void t(T) {}\n"
      "#ifdef __HIP_PLATFORM_AMD__\n"
      "float4 operator+(float4 a, float4 b) { return a; }\n"
      "#endif\n"
      "void f() { g(1); }\n");
  const DefinitionScan& scan = definition_scan(v);
  EXPECT_EQ(&definition_scan(v), &scan);  // computed once
  ASSERT_EQ(scan.all.size(), 3u);
  EXPECT_EQ(scan.all[0].signature(), "atomicMax(float*,float)");
  EXPECT_EQ(scan.all[1].signature(), "operator+(float4,float4)");
  EXPECT_TRUE(scan.all[1].platform_branch);
  EXPECT_EQ(scan.all[2].signature(), "f()");
  EXPECT_EQ(scan.transparent, (std::vector<bool>{true, true, true}));
  const auto only_f = select_definitions(
      v, [](std::size_t) { return false; }, as_written, [](const std::string& n) { return n == "f"; });
  ASSERT_EQ(only_f.size(), 1u);
  EXPECT_EQ(only_f[0].fname, "f");
  // Renamed as the caller names them.
  const auto renamed = select_definitions(
      v, [](std::size_t) { return false; }, [](std::string_view w) { return "hip_" + std::string(w); },
      [](const std::string& n) { return n == "hip_f"; });
  ASSERT_EQ(renamed.size(), 1u);
  EXPECT_EQ(renamed[0].signature(), "hip_f()");
}

TEST(DefinitionScan, ADefinitionThatAWalkWouldNotStepThroughAloneMakesItWalkAgain) {
  // h's body ends, as the count of braces sees it, at the `}` of the #define; a walk that does not
  // want h steps through its body (skipping directives) and is still inside a block at f.
  const std::string text = "void h() {\n#define B }\n{\n}\nvoid f() {}\n";
  const lex::CodeView v(text);
  const DefinitionScan& scan = definition_scan(v);
  ASSERT_EQ(scan.all.size(), 2u);
  EXPECT_FALSE(scan.transparent[0]);
  EXPECT_TRUE(select_definitions(
                  v, [](std::size_t) { return false; }, as_written, [](const std::string& n) { return n == "f"; })
                  .empty());
  expect_same(v, {"f"}, 0, text);
  expect_same(v, {"h"}, 0, text);
}

// Files made of pieces that stress the walk (braces in directives, namespaces, `operator {`,
// unbalanced braces, templates, members), selected from with many filters.
TEST(DefinitionScan, SelectingIsWalkingForAnyFilter) {
  const std::vector<std::string> pieces = {
      "void f(int a) { return; }\n",
      "__device__ float atomicMax(float* p, float v) { return v; }\n",
      "float4 operator+(float4 a, float4 b) { return a; }\n",
      "int operator{(int a) { }\n",
      "void r() operator {(x) {}\n",
      "void q() namespace { int z(int) { } }\n",
      "void h() {\n#define B {\n}\n",
      "void k(int x)\n#ifdef A\n{\n#else\n{\n#endif\n}\n",
      "void e() {\n#define C }\n{\n}\n",
      "namespace n {\n",
      "extern \"C\" {\n",
      "}\n",
      "{\n",
      "struct S { void m(int) {} };\n",
      "template <class T> void t(T) {}\n",
      "void u(int (*fp)(int)) { }\n",
      "int v2(int a) noexcept { return a; }\n",
      "#if defined(__HIP_PLATFORM_AMD__)\n",
      "#endif\n",
      "void g() { f(1); if (x) { y(); } }\n",
      "static inline int w(unsigned int a, const float& b = 1) { return 0; }\n",
      "void d(int a);\n",
  };
  const std::vector<std::set<std::string>> filters = {
      {}, {"f"}, {"g"}, {"h", "k"}, {"atomicMax", "operator+"}, {"z", "q"}, {"e"}, {"w", "v2", "u"}, {"nothing"}};
  std::mt19937 rng(26);
  for (int round = 0; round < 1500; ++round) {
    std::string text;
    const std::size_t count = 1 + rng() % 10;
    for (std::size_t p = 0; p < count; ++p) text += pieces[rng() % pieces.size()];
    const lex::CodeView v(text);
    for (const auto& wanted : filters)
      for (const std::size_t excluded_mod : {0u, 3u, 7u}) expect_same(v, wanted, excluded_mod, text);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace ferry::targets::hip
