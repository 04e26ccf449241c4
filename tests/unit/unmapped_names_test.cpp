// targets/unmapped_names: the CUDA and HIP header names no rule maps (FRY1004), and which of them
// a project declares itself.
#include "targets/unmapped_names.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "lex/code_view.h"
#include "rules/builtin.h"
#include "targets/hip/passes.h"

namespace ferry::targets {
namespace {

UnmappedNames cuda_names() { return UnmappedNames("cuda_api_names.tsv", "CUDA", {"cu", "CU", "nccl", "NCCL"}); }

TEST(UnmappedNames, ListsHeaderNamesWithoutRulesOnly) {
  const UnmappedNames names = cuda_names();
  const UnmappedApiName* fabric = names.find("CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED");
  ASSERT_NE(fabric, nullptr);
  EXPECT_EQ(fabric->family, "driver");
  EXPECT_EQ(fabric->where, "CUDA driver API, cuda.h");
  EXPECT_EQ(names.find("cudaMalloc"), nullptr);                 // a rule maps it
  EXPECT_EQ(names.find("CU_MEM_HANDLE_TYPE_FABRIC"), nullptr);  // an unsupported row reports it (FRY1001)
  EXPECT_EQ(names.find("CUDART_CB"), nullptr);                  // a pass removes it
  EXPECT_EQ(names.find("myCudaThing"), nullptr);
  const UnmappedNames hip("hip_api_names.tsv", "HIP", {"hip", "HIP"});
  ASSERT_NE(hip.find("hipGetStreamDeviceId"), nullptr);
  EXPECT_EQ(hip.find("hipMalloc"), nullptr);
  EXPECT_EQ(hip.find("hipExtMallocWithFlags"), nullptr);  // hipExt* is FRY1202's
}

// One description per family and header, shared by the names that have them (634 names are the
// driver API's of cuda.h).
TEST(UnmappedNames, NamesOfOneFamilyAndHeaderShareOneDescription) {
  const UnmappedNames names = cuda_names();
  const UnmappedApiName* a = names.find("CUDA_ARRAY3D_COLOR_ATTACHMENT");
  const UnmappedApiName* b = names.find("CUDA_ARRAY3D_DEFERRED_MAPPING");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->where, "CUDA driver API, cuda.h");
  const UnmappedApiName* nccl = names.find("NCCL_COMM_NULL");
  ASSERT_NE(nccl, nullptr);
  EXPECT_EQ(nccl->where, "CUDA nccl API, nccl.h");
  EXPECT_EQ(names.find("CUDA_ARRAY3D_COLOR_ATTACHMENTS"), nullptr);
  EXPECT_EQ(names.find("CUDA_ARRAY3D"), nullptr);
  const std::vector<std::string_view> all = names.names();
  EXPECT_NE(std::find(all.begin(), all.end(), "NCCL_COMM_NULL"), all.end());
}

// The API names a user's declaration never clashes with: built on the first question, from the
// forward rules (both sides, a call template's called name), the HIP -> CUDA tables and the
// unmapped CUDA names.
TEST(ApiNames, KnowsBothSidesOfTheRulesAndTheUnmappedNames) {
  rules::RuleSet forward;
  const std::string_view skip[] = {"cuda2hip/alt-"};
  rules::load_builtin(forward, "cuda2hip/", skip);
  const UnmappedNames unmapped = cuda_names();
  const hip::ApiNames api(forward, unmapped);
  EXPECT_TRUE(api.contains("cudaMalloc"));                     // a rule's from
  EXPECT_TRUE(api.contains("hipMalloc"));                      // its to
  EXPECT_TRUE(api.contains("hipFuncGetAttributes"));           // a call template's called name
  EXPECT_TRUE(api.contains("__shfl_sync"));                    // rules/hip2cuda
  EXPECT_TRUE(api.contains("CUDA_ARRAY3D_COLOR_ATTACHMENT"));  // unmapped
  EXPECT_FALSE(api.contains("reinterpret_cast"));
  EXPECT_FALSE(api.contains("my_kernel"));
  EXPECT_FALSE(api.contains("cuda_runtime"));  // a header's name is not an identifier rule
}

TEST(UnmappedNames, TheProjectsOwnDeclarationsAreCollected) {
  const std::string text =
      "typedef struct CUsurfref_st *CUsurfref;\n"
      "typedef enum CUjit_target_enum { CU_TARGET_COMPUTE_30 = 30, CU_TARGET_COMPUTE_32 } CUjit_target;\n"
      "typedef void (*cudaLogsCallback_t)(void *, int);\n"
      "using cudaLogLevel = int;\n"
      "struct cudaAsyncCallbackEntry;\n"
      "void use() { int x = CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED; }\n"
      "#define CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 132\n";
  std::unordered_set<std::string> declared;
  cuda_names().collect_declared(lex::CodeView(text), declared);
  for (const char* name :
       {"CUsurfref_st", "CUsurfref", "CUjit_target_enum", "CU_TARGET_COMPUTE_30", "CU_TARGET_COMPUTE_32",
        "CUjit_target", "cudaLogsCallback_t", "cudaLogLevel", "cudaAsyncCallbackEntry"})
    EXPECT_TRUE(declared.contains(name)) << name;
  EXPECT_FALSE(declared.contains("CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED"));  // a use, not a declaration
  EXPECT_FALSE(declared.contains("CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED"));           // macros: defined_macros' job
}

}  // namespace
}  // namespace ferry::targets
