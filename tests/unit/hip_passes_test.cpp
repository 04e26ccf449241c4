// The CUDA → HIP passes over several files at once (the golden tests see one file each): the
// name-clash renames are project-wide, never touch text Ferry generates, and are idempotent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "migrate/file_migration.h"
#include "targets/hip/passes.h"
#include "targets/target.h"

namespace ferry::targets {
namespace {

struct Migrated {
  std::vector<std::string> outputs;
  std::vector<Diagnostic> diags;
  ProjectContext ctx;
};

Migrated migrate_project(const std::vector<std::pair<std::string, std::string>>& files,
                         const Options& options = {}) {
  const auto target = make_target("hip", options);
  Migrated m;
  std::vector<SourceView> views;
  for (const auto& [path, text] : files) views.push_back({path, text});
  target->prepare_project(views, m.ctx);
  for (const auto& [path, text] : files) {
    migrate::FileResult r = migrate::migrate_buffer(path, text, *target, options, m.ctx);
    m.outputs.push_back(std::move(r.output));
    for (auto& d : r.diagnostics) m.diags.push_back(std::move(d));
  }
  return m;
}

std::size_t count(const std::vector<Diagnostic>& diags, std::string_view code) {
  std::size_t n = 0;
  for (const auto& d : diags) n += to_string(d.code) == code;
  return n;
}

const std::vector<std::pair<std::string, std::string>> kProject = {
    {"compat.cuh",
     "#pragma once\n"
     "#include <cuda_runtime.h>\n"
     "__device__ inline float __shfl_down(float v, unsigned d) {\n"
     "  return __shfl_down_sync(0xffffffff, v, d);\n"
     "}\n"},
    {"reduce.cu",
     "#include \"compat.cuh\"\n"
     "__global__ void k(float* x) {\n"
     "  float v = x[threadIdx.x];\n"
     "  v += __shfl_down(v, 1);\n"
     "  v += __shfl_down_sync(0xffffffff, v, 2);\n"
     "  x[threadIdx.x] = v;\n"
     "}\n"},
};

TEST(HipNameClash, RenamesDeclarationAndUsesAcrossFiles) {
  const Migrated m = migrate_project(kProject);
  ASSERT_EQ(m.ctx.clash_renames.size(), 1u);
  EXPECT_EQ(m.ctx.clash_renames.at("__shfl_down"), "__shfl_down_user");
  EXPECT_EQ(m.ctx.clash_origins.at("__shfl_down"), "compat.cuh:3");
  // The declaration is renamed; its body's generated __shfl_down is HIP's.
  EXPECT_NE(m.outputs[0].find("float __shfl_down_user(float v, unsigned d)"), std::string::npos);
  EXPECT_NE(m.outputs[0].find("return __shfl_down(v, d);"), std::string::npos);
  // The other file's use of the user's helper follows; its CUDA 9 call becomes HIP's.
  EXPECT_NE(m.outputs[1].find("v += __shfl_down_user(v, 1);"), std::string::npos);
  EXPECT_NE(m.outputs[1].find("v += __shfl_down(v, 2);"), std::string::npos);
  EXPECT_EQ(count(m.diags, "FRY4101"), 1u);
}

TEST(HipNameClash, MigratingTheOutputAgainChangesNothing) {
  const Migrated first = migrate_project(kProject);
  std::vector<std::pair<std::string, std::string>> again;
  for (std::size_t i = 0; i < kProject.size(); ++i) again.emplace_back(kProject[i].first, first.outputs[i]);
  const Migrated second = migrate_project(again);
  EXPECT_TRUE(second.ctx.clash_renames.empty());
  EXPECT_EQ(second.outputs, first.outputs);
}

TEST(HipNameClash, AvoidsNamesAlreadyTaken) {
  const Migrated m = migrate_project({{"a.cu",
                                       "__device__ unsigned __lane_id() { return threadIdx.x % 32; }\n"
                                       "__device__ int __lane_id_user = 0;\n"}});
  EXPECT_EQ(m.ctx.clash_renames.at("__lane_id"), "__lane_id_user2");
}

TEST(HipNameClash, UsesAloneAreNotClashes) {
  // Calling HIP's (or legacy CUDA's) __shfl_xor is not a declaration: nothing to rename.
  const Migrated m = migrate_project({{"a.cu",
                                       "__global__ void k(float* x) {\n"
                                       "  float v = __shfl_xor(x[0], 1);\n"
                                       "  unsigned long long b = __ballot(v > 0);\n"
                                       "  x[0] = v + b;\n"
                                       "}\n"}});
  EXPECT_TRUE(m.ctx.clash_renames.empty());
}

TEST(HipLaunch, GglOnlyWhenAsked) {
  const std::vector<std::pair<std::string, std::string>> src = {
      {"a.cu", "__global__ void k(int* p) {}\nvoid f(int* p) { k<<<1, 64>>>(p); }\n"}};
  Options ggl;
  ggl.values["launch"] = "ggl";
  EXPECT_NE(migrate_project(src, ggl).outputs[0].find("hipLaunchKernelGGL(k, 1, 64, 0, 0, p);"),
            std::string::npos);
  EXPECT_NE(migrate_project(src).outputs[0].find("k<<<1, 64>>>(p);"), std::string::npos);
}

TEST(HipWarp, UserShimDeclarationIsNotRewritten) {
  // A compatibility definition of a *_sync intrinsic for old toolkits is the user's function.
  const Migrated m = migrate_project(
      {{"a.cu",
        "__device__ inline int __any_sync(unsigned mask, int p) { return __any(p); }\n"}});
  EXPECT_NE(m.outputs[0].find("int __any_sync(unsigned mask, int p)"), std::string::npos);
}

TEST(HipSolverArgs, OnlyTheSolversOwnArgumentsBecomeHipsolverNames) {
  const Migrated m = migrate_project(
      {{"a.cu",
        "void f(cusolverDnHandle_t h, cublasHandle_t b, float* A, int* info) {\n"
        "  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_UPPER, 4, A, 4, A, 0, info);\n"
        "  cusolverDnSpotrf(h, pick(CUBLAS_FILL_MODE_LOWER), 4, A, 4, A, 0, info);\n"
        "  cublasStrsm(b, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,\n"
        "              CUBLAS_DIAG_UNIT, 4, 1, A, A, 4, A, 4);\n"
        "  cusolverDnSormqr(h, CUBLAS_SIDE_RIGHT, (CUBLAS_OP_HERMITAN), 4, 4, 4, A, 4, A, A, 4,\n"
        "                   A, 0, info);\n"
        "  cusolverDnSgetrs(h, CUBLAS_OP_C, 4, 1, A, 4, info, A, 4, info);  // ferry: ignore\n"
        "  cusolverDnSgetrs(h, CUBLAS_OP_T, 4, 1, A, 4, info, A, 4, info);\n"
        "}\n"}});
  const std::string& out = m.outputs[0];
  EXPECT_NE(out.find("hipsolverDnSpotrf(h, HIPSOLVER_FILL_MODE_UPPER,"), std::string::npos) << out;
  EXPECT_NE(out.find("pick(HIPBLAS_FILL_MODE_LOWER)"), std::string::npos) << out;
  EXPECT_NE(out.find("hipblasStrsm(b, HIPBLAS_SIDE_LEFT, HIPBLAS_FILL_MODE_UPPER, HIPBLAS_OP_N,"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("hipsolverDnSormqr(h, HIPSOLVER_SIDE_RIGHT, (HIPSOLVER_OP_C)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("cusolverDnSgetrs(h, CUBLAS_OP_C,"), std::string::npos)
      << out;  // excluded line untouched
  EXPECT_NE(out.find("hipsolverDnSgetrs(h, HIPSOLVER_OP_T,"), std::string::npos) << out;
  EXPECT_EQ(count(m.diags, "FRY4102"), 0u);
}

TEST(HipSolverArgs, EnumVariablesAreReportedWithTheBlasChoice) {
  const std::vector<std::pair<std::string, std::string>> src = {
      {"a.cu",
       "void g(cusolverDnHandle_t h, float* A, int* info, int uplo2) {\n"
       "  cusolverDnSpotrf(h, uplo, 4, A, 4, A, 0, info);\n"  // used before any declaration
       "  const cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;\n"
       "  cusolverDnSpotrf(h, uplo, 4, A, 4, A, 0, info);\n"
       "  cusolverDnSpotrf(h, static_cast<cublasFillMode_t>(uplo), 4, A, 4, A, 0, info);\n"
       "  cusolverDnSpotrf(h, uplo2 ? uplo : uplo, 4, A, 4, A, 0, info);\n"
       "}\n"}};
  Options rocblas;
  rocblas.values["blas"] = "rocblas";
  const Migrated m = migrate_project(src, rocblas);
  ASSERT_EQ(count(m.diags, "FRY4102"), 1u);
  for (const Diagnostic& d : m.diags)
    if (to_string(d.code) == "FRY4102") {
      EXPECT_EQ(d.line, 4u);
      EXPECT_NE(d.message.find("rocblas_fill after migration"), std::string::npos) << d.message;
    }
  EXPECT_NE(m.outputs[0].find("const rocblas_fill uplo = rocblas_fill_lower;"), std::string::npos)
      << m.outputs[0];
  EXPECT_NE(m.outputs[0].find("static_cast<hipsolverFillMode_t>(uplo)"), std::string::npos)
      << m.outputs[0];
}

TEST(HipReservedNames, ListHoldsHipOnlyNames) {
  const auto names = hip::load_reserved_names();
  EXPECT_TRUE(names.contains("__shfl_xor"));
  EXPECT_TRUE(names.contains("__lane_id"));
  EXPECT_TRUE(names.contains("HIP_DYNAMIC_SHARED"));
  EXPECT_TRUE(names.contains("hipMalloc"));
  EXPECT_FALSE(names.contains("__syncwarp"));   // absent from HIP 5.2
  EXPECT_FALSE(names.contains("__popc"));       // CUDA defines it too
}

}  // namespace
}  // namespace ferry::targets
