// Reading HIPIFY's API tables (docs/tables/*.md, markdown) and classifying how Ferry's rules
// cover them (`ferry rules --stats --against-hipify`). The tables here are written by us in the
// tables' layout: name | CUDA A | D | C | R | target | A | D | C | R | E.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <stdlib.h>

#include "rules/hipify_tables.h"
#include "rules/rule_set.h"

namespace fs = std::filesystem;

namespace ferry::rules {
namespace {

class HipifyTables : public ::testing::Test {
 protected:
  void SetUp() override {
    // A directory of its own per test process: CTest runs this suite's tests in parallel.
    std::string tmpl = (fs::temp_directory_path() / "ferry-hipify-tables-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  fs::path dir_;
};

constexpr const char* kRuntime =
    "# CUDA Runtime API supported by HIP\n\n"
    "## **1. Device Management**\n\n"
    "|**CUDA**|**A**|**D**|**C**|**R**|**HIP**|**A**|**D**|**C**|**R**|**E**|\n"
    "|:--|:-:|:-:|:-:|:-:|:--|:-:|:-:|:-:|:-:|:-:|\n"
    "|`cudaMalloc`| | | | |`hipMalloc`|1.5.0| | | | |\n"
    "|`cudaFree`| | | | |`hipFree`|1.5.0| | | | |\n"
    "|`cudaMemPrefetchAsync`|8.0| | | |`hipMemPrefetchAsync`|3.7.0| | | | |\n"
    "|`cudaProfilerStart`| | | | |`hipProfilerStart`|1.6.0|3.0.0| | | |\n"
    "|`cudaLegacyOnly`| | | | | | | | | | |\n"
    "|`cudaNewName`|12.0| | | |`hipNewName`|6.2.0| | | | |\n";

TEST_F(HipifyTables, ReadsNamesColumnsSectionsAndReleases) {
  write("CUDA_Runtime_API_functions_supported_by_HIP.md", kRuntime);
  write("CUDA_Runtime_API_functions_supported_by_HIP_and_ROC.md", kRuntime);  // joint tables repeat: skipped
  const auto names = read_hipify_tables(dir_);
  ASSERT_EQ(names.size(), 5u);  // the row without a HIP name is not a name HIPIFY converts
  EXPECT_EQ(names[0].table, "CUDA_Runtime");
  EXPECT_EQ(names[0].column, "HIP");
  EXPECT_EQ(names[0].section, "1. Device Management");
  EXPECT_EQ(names[0].cuda, "cudaMalloc");
  EXPECT_EQ(names[0].target, "hipMalloc");
  EXPECT_EQ(names[0].added, (Version{1, 5}));
  EXPECT_EQ(names[4].added, (Version{6, 2}));
}

TEST_F(HipifyTables, NoTableIsAnError) {
  write("README.md", "no tables\n");
  EXPECT_THROW((void)read_hipify_tables(dir_), std::runtime_error);
}

TEST_F(HipifyTables, ClassifiesEachName) {
  write("CUDA_Runtime_API_functions_supported_by_HIP.md", kRuntime);
  RuleSet rules;
  rules.load_table(
      "func\tcudaMalloc\thipMalloc\truntime\tsupported\t1.5\n"
      "func\tcudaFree\thipFreeOther\truntime\tsupported\t1.5\tHIPIFY gives hipFree; hipFreeOther is right\n"
      "func\tcudaMemPrefetchAsync\thipMemPrefetchAsync(HIP_SYMBOL($0), $1...)\truntime\tchanged\t3.7\tcall\n"
      "func\tcudaProfilerStart\t-\truntime\tunsupported\t-\tHIPIFY converts it, but it is deprecated\n"
      "func\tcudaNewName\tsomethingElse\truntime\tsupported\t6.2\n",
      "test.tsv", RuleSet::Merge::RejectDuplicates);
  const auto names = read_hipify_tables(dir_);
  const auto rep = hipify_coverage(rules, names, [](std::string_view) { return std::string_view("HIP"); });
  ASSERT_EQ(rep.entries.size(), 5u);
  EXPECT_EQ(rep.entries[0].kind, Coverage::Same);
  EXPECT_EQ(rep.entries[1].kind, Coverage::Better);
  EXPECT_EQ(rep.entries[2].kind, Coverage::Same);  // a call template's head is its name
  EXPECT_EQ(rep.entries[3].kind, Coverage::Declined);
  EXPECT_EQ(rep.entries[4].kind, Coverage::Differs);
  ASSERT_EQ(rep.tables.size(), 1u);
  EXPECT_EQ(rep.tables[0].table, "CUDA_Runtime (HIP)");
  EXPECT_EQ(rep.total.total(), 5u);
  EXPECT_EQ(rep.total.covered(), 3u);

  RuleSet empty;
  const auto none = hipify_coverage(empty, names, [](std::string_view) { return std::string_view("HIP"); });
  EXPECT_EQ(none.total.by_kind[static_cast<std::size_t>(Coverage::Missing)], 5u);
  // Another column than the one asked for is not counted.
  const auto roc = hipify_coverage(rules, names, [](std::string_view) { return std::string_view("ROC"); });
  EXPECT_EQ(roc.total.total(), 0u);
}

}  // namespace
}  // namespace ferry::rules
