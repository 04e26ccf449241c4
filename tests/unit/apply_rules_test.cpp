// apply_rules reads only the tokens its walk can act on (rule_walk_tokens in file_migration.cpp):
// the identifiers with a rule or an unmapped API name, the names before `::` and `;`, every header
// name (also one that is not the word after `#include`) and each directive's '#', which forgets
// the includes seen at a conditional. Each kind is here, with the output main gave for it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "migrate/file_migration.h"
#include "targets/target.h"

namespace ferry::targets {
namespace {

std::string migrate_one(const std::string& text) {
  const Options options;
  const auto target = make_target("hip", options);
  ProjectContext ctx;
  std::vector<SourceView> views{{"in.cu", text}};
  target->prepare_project(views, ctx);
  return migrate::migrate_buffer("in.cu", text, *target, options, ctx).output;
}

TEST(ApplyRules, WalksHeaderNamesDirectivesNamespacesAndNamedIdentifiers) {
  const std::string in =
      "#include <cuda_runtime.h>\n"
      "#include <cuda_runtime_api.h>\n"
      "#ifdef USE_DRIVER\n"
      "#  include /* the driver */ <cuda.h>\n"
      "#else\n"
      "#include <cuda_runtime_api.h>\n"
      "#endif\n"
      "#define INC 1\n"
      "#include INC_NAME <cufft.h>\n"
      "namespace cg = cooperative_groups;\n"
      "using namespace cub;\n"
      "void f(float* p, int n) {\n"
      "  cudaMalloc(&p, n);\n"
      "  cub::DeviceReduce::Sum(0, n);\n"
      "  int cudaFree;\n"
      "  n = threadIdx.x;\n"
      "}\n";
  const std::string want =
      "#include <hip/hip_runtime.h>\n"
      "/* ferry-cuda: #include <cuda_runtime_api.h> */\n"  // the same header again: dropped, recorded
      "#ifdef USE_DRIVER\n"
      "#  include /* the driver */ <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */\n"
      "#else\n"  // a conditional forgets the includes seen: kept
      "#include <hip/hip_runtime.h> /* ferry-cuda: <cuda_runtime_api.h> */\n"
      "#endif\n"
      "#define INC 1\n"
      "#include INC_NAME <hipfft/hipfft.h>\n"  // a header name after another word
      "namespace cg = cooperative_groups;\n"
      "using namespace hipcub;\n"  // a namespace before `;`
      "void f(float* p, int n) {\n"
      "  hipMalloc(&p, n);\n"
      "  hipcub::DeviceReduce::Sum(0, n);\n"  // a namespace before `::`
      "  int hipFree;\n"
      "  n = threadIdx.x;\n"
      "}\n";
  EXPECT_EQ(migrate_one(in), want);
}

}  // namespace
}  // namespace ferry::targets
