// buildsys::SourceFacts (src/buildsys/source_facts.h): what HIP sources tell the HIP -> CUDA
// build-file migrators, and what the migrators do with it (FRY5240, FRY5241).
#include "buildsys/source_facts.h"

#include <gtest/gtest.h>

#include "buildsys/build_files.h"

using namespace ferry::buildsys;

namespace {
Options with_arch(const char* a) {
  Options o;
  o.arch = a;
  return o;
}
bool has_code(const Result& r, const std::string& code) {
  for (const auto& d : r.diagnostics)
    if (to_string(d.code) == code) return true;
  return false;
}
}  // namespace

TEST(SourceFacts, Wave64SelectorsByContentAndName) {
  const std::string a =
      "#ifdef BIG_WAVES\n"
      "  for (int o = 32; o > 0; o >>= 1) v += __shfl_down(v, o, 64);\n"
      "#else\n"
      "  for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);\n"
      "#endif\n"
      "#if USE_WAVE64\n#endif\n"
      "#if WARP_SIZE == 64\n#endif\n"
      "#ifdef DEBUG\n  printf(\"%d\", 64);\n#endif\n";
  const SourceFacts f = scan_source_facts({{"k.hip", a}});
  EXPECT_TRUE(f.wave64_macros.contains("BIG_WAVES"));
  EXPECT_EQ(f.wave64_macros.at("BIG_WAVES"), "k.hip:1");
  EXPECT_TRUE(f.wave64_macros.contains("USE_WAVE64"));
  EXPECT_TRUE(f.width_macros.contains("WARP_SIZE"));
  EXPECT_FALSE(f.wave64_macros.contains("DEBUG"));  // 64 without warp code
  EXPECT_TRUE(f.extended_lambda.empty());
  EXPECT_TRUE(f.relaxed_constexpr.empty());
}

TEST(SourceFacts, NvccFlagsTheCodeNeeds) {
  const std::string lambdas =
      "[[nodiscard]] __device__ int f();\n"  // an attribute, not a lambda
      "int main() { auto op = [=] __device__ (int i) { return i; }; }\n";
  EXPECT_EQ(scan_source_facts({{"l.hip", lambdas}}).extended_lambda, "l.hip:2");
  const std::string limits =
      "#include <limits>\n"
      "constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }\n"
      "__host__ __device__ constexpr int both(int a) { return a; }\n"
      "__global__ void k(float* p) { p[0] = std::numeric_limits<float>::infinity(); }\n";
  EXPECT_EQ(scan_source_facts({{"a.hip", limits}}).relaxed_constexpr, "a.hip:4");
  const std::string own =
      "constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }\n"
      "__global__ void k(int* p) { p[0] = ceil_div(p[1], 4); }\n";
  EXPECT_EQ(scan_source_facts({{"b.hip", own}}).relaxed_constexpr, "b.hip:2");
  const std::string annotated =
      "__host__ __device__ constexpr int ceil_div(int a, int b) { return a / b; }\n"
      "__global__ void k(int* p) { p[0] = ceil_div(p[1], 4); }\n"
      "int host() { return std::numeric_limits<int>::max(); }\n";
  EXPECT_TRUE(scan_source_facts({{"c.hip", annotated}}).relaxed_constexpr.empty());
  EXPECT_TRUE(scan_source_facts({{"d.hip", "float4 operator+(float4 a, float4 b);\n"}}).user_vector_operators);
}

TEST(SourceFacts, MakefileGetsWave64DefinesDroppedAndFlagsAdded) {
  const std::string mk =
      "HIPCC = hipcc\n"
      "FLAGS = -O3 -DWAVE64 -D BIG_WAVES -DWARP_SIZE=64 -DWAVE64=0 -DNDEBUG --offload-arch=gfx90a\n"
      "app: app.hip\n"
      "\t$(HIPCC) $(FLAGS) --hip-link -o $@ $<\n";
  Options o = with_arch("sm_90");
  o.facts.wave64_macros["BIG_WAVES"] = "k.hip:1";
  o.facts.extended_lambda = "k.hip:9";
  const Result r = migrate_makefile_to_cuda("Makefile", mk, o);
  EXPECT_NE(r.output.find("HIPCC = nvcc --extended-lambda\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FLAGS = -O3 -DWARP_SIZE=32 -DWAVE64=0 -DNDEBUG -arch=sm_90\n"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("--hip-link"), std::string::npos) << r.output;
  EXPECT_TRUE(has_code(r, "FRY5240"));
  EXPECT_TRUE(has_code(r, "FRY5241"));
  // Alone (no sources): only the names that say so; no flags added.
  const Result alone = migrate_makefile_to_cuda("Makefile", mk, with_arch("sm_90"));
  EXPECT_NE(alone.output.find("HIPCC = nvcc\n"), std::string::npos) << alone.output;
  EXPECT_NE(alone.output.find("-D BIG_WAVES"), std::string::npos) << alone.output;
}

TEST(SourceFacts, CMakeGetsFlagsAfterTheLanguage) {
  const std::string cm =
      "cmake_minimum_required(VERSION 3.21)\n"
      "project(app LANGUAGES CXX HIP)\n"
      "add_executable(app app.hip)\n"
      "target_compile_definitions(app PRIVATE NDEBUG)\n";
  Options o = with_arch("sm_90");
  o.facts.relaxed_constexpr = "app.hip:3";
  const Result r = migrate_cmake_to_cuda("CMakeLists.txt", cm, o);
  EXPECT_NE(r.output.find("project(app LANGUAGES CXX CUDA)\n"
                          "add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(has_code(r, "FRY5241"));
}

TEST(SourceFacts, FlagsOnlyForBuildFilesOverTheCodeThatNeedsThem) {
  const std::string mk = "CXX = hipcc\napp: app.hip\n\t$(CXX) -o $@ $<\n";
  Options o = with_arch("sm_90");
  o.facts.extended_lambda = "reduction/v1.hip:94;include/scan.hpp:10;tools/run.hip:0";
  EXPECT_NE(migrate_makefile_to_cuda("reduction/Makefile", mk, o).output.find("CXX = nvcc --extended-lambda\n"),
            std::string::npos);
  EXPECT_NE(migrate_makefile_to_cuda("tools/Makefile", mk, o).output.find("CXX = nvcc --extended-lambda\n"),
            std::string::npos);  // includes a header that needs it
  EXPECT_NE(migrate_makefile_to_cuda("saxpy/Makefile", mk, o).output.find("CXX = nvcc\n"), std::string::npos);
  EXPECT_NE(migrate_makefile_to_cuda("Makefile", mk, o).output.find("CXX = nvcc --extended-lambda\n"),
            std::string::npos);  // the top folder holds them all
}
