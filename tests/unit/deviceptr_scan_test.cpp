// The hip target's deviceptr pre-pass (targets/hip/deviceptr_decls.cpp): per translation unit, the
// names declared with CUDA's integer handle types. Units that declare nothing themselves and
// include the same headers share one set of names; a unit with declarations of its own gets its own.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "targets/target.h"

namespace ferry::targets {
namespace {

ProjectContext prepare(const std::vector<std::pair<std::string, std::string>>& files) {
  const Options options;
  const auto target = make_target("hip", options);
  ProjectContext ctx;
  std::vector<SourceView> views;
  for (const auto& [path, text] : files) views.push_back({path, text});
  target->prepare_project(views, ctx);
  return ctx;
}

const std::string kHeader =
    "#pragma once\n"
    "#include <cuda.h>\n"
    "extern CUdeviceptr d_buf;\n"
    "extern CUdeviceptr* d_list;\n"
    "extern cudaTextureObject_t tex;\n";

TEST(DeviceptrScan, UnitsWithTheSameHeadersShareTheirNames) {
  const ProjectContext ctx = prepare({{"inc/h.cuh", kHeader},
                                      {"a.cu", "#include \"inc/h.cuh\"\nvoid fa() { cuMemFree(d_buf); }\n"},
                                      {"b.cu", "#include \"inc/h.cuh\"\nvoid fb() { cuMemFree(d_buf + 4); }\n"},
                                      {"c.cu", "#include \"inc/h.cuh\"\nint tex = 0;\nCUdeviceptr mine;\n"},
                                      {"d.cu", "void nothing() {}\n"}});
  const auto& names = ctx.integer_handle_names;
  ASSERT_TRUE(names.contains("a.cu"));
  ASSERT_TRUE(names.contains("b.cu"));
  ASSERT_TRUE(names.contains("c.cu"));
  EXPECT_FALSE(names.contains("d.cu"));  // includes nothing, declares nothing
  const auto& a = *names.at("a.cu");
  EXPECT_EQ(names.at("a.cu"), names.at("b.cu"));  // one set, shared
  EXPECT_EQ(a.values.size(), 2u);
  EXPECT_EQ(a.values.at("d_buf"), "hipDeviceptr_t");
  EXPECT_TRUE(a.values.contains("tex"));
  EXPECT_TRUE(a.pointers.contains("d_list"));
  EXPECT_TRUE(a.ambiguous.empty());
  // c.cu declares `tex` as an int too, and a handle of its own: its own names.
  const auto& c = *names.at("c.cu");
  EXPECT_NE(names.at("c.cu"), names.at("a.cu"));
  EXPECT_TRUE(c.ambiguous.contains("tex"));
  EXPECT_FALSE(c.values.contains("tex"));
  EXPECT_TRUE(c.values.contains("mine"));
  EXPECT_TRUE(c.values.contains("d_buf"));
  // The header is a unit of its own (it declares the names).
  ASSERT_TRUE(names.contains("inc/h.cuh"));
  EXPECT_EQ(names.at("inc/h.cuh")->values.size(), 2u);
}

// The same as when every unit had its own copy: a unit that includes the headers in another
// order, or one more header, is not handed another unit's set.
TEST(DeviceptrScan, ADifferentSetOfHeadersIsNotShared) {
  const ProjectContext ctx = prepare({{"h1.cuh", "#include <cuda.h>\nextern CUdeviceptr one;\n"},
                                      {"h2.cuh", "#include <cuda.h>\nextern CUdeviceptr* two;\n"},
                                      {"a.cu", "#include \"h1.cuh\"\n"},
                                      {"b.cu", "#include \"h1.cuh\"\n#include \"h2.cuh\"\n"},
                                      {"c.cu", "#include \"h2.cuh\"\n#include \"h1.cuh\"\n"},
                                      {"e.cu", "#include \"h1.cuh\"\n"}});
  const auto& names = ctx.integer_handle_names;
  EXPECT_EQ(names.at("a.cu"), names.at("e.cu"));
  EXPECT_NE(names.at("a.cu"), names.at("b.cu"));
  EXPECT_NE(names.at("b.cu"), names.at("c.cu"));
  EXPECT_FALSE(names.at("a.cu")->pointers.contains("two"));
  EXPECT_TRUE(names.at("b.cu")->pointers.contains("two"));
  EXPECT_TRUE(names.at("c.cu")->values.contains("one"));
  EXPECT_TRUE(names.at("c.cu")->pointers.contains("two"));
}

}  // namespace
}  // namespace ferry::targets
