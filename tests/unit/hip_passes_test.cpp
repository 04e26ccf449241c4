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

Migrated migrate_project(const std::vector<std::pair<std::string, std::string>>& files, const Options& options = {}) {
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

// Migrating the outputs of `first` (the migration of `tree`) again renames nothing and changes nothing.
void expect_fixed_point(const std::vector<std::pair<std::string, std::string>>& tree, const Migrated& first) {
  std::vector<std::pair<std::string, std::string>> again;
  for (std::size_t i = 0; i < tree.size(); ++i) again.emplace_back(tree[i].first, first.outputs[i]);
  const Migrated second = migrate_project(again);
  EXPECT_TRUE(second.ctx.clash_renames.empty());
  EXPECT_EQ(second.outputs, first.outputs);
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
     "#define MASK1 0x0000ffffu\n"
     "__device__ inline float __shfl_down(float v, unsigned d) {\n"
     "  return __shfl_down_sync(0xffffffff, v, d);\n"
     "}\n"},
    {"reduce.cu",
     "#include \"compat.cuh\"\n"
     "__global__ void k(float* x) {\n"
     "  float v = x[threadIdx.x] * (threadIdx.x & MASK1);\n"
     "  v += __shfl_down(v, 1);\n"
     "  v += __shfl_down_sync(0xffffffff, v, 2);\n"
     "  x[threadIdx.x] = v;\n"
     "}\n"},
};

TEST(HipNameClash, RenamesDeclarationAndUsesAcrossFiles) {
  const Migrated m = migrate_project(kProject);
  // MASK1 is a macro of HIP's headers: renamed. __shfl_down(float, unsigned) is a signature HIP
  // defines: the definition is kept for CUDA only and the name is not renamed.
  ASSERT_EQ(m.ctx.clash_renames.size(), 1u);
  EXPECT_EQ(m.ctx.clash_renames.at("MASK1"), "MASK1_user");
  EXPECT_EQ(m.ctx.clash_origins.at("MASK1"), "compat.cuh:3");
  EXPECT_NE(m.outputs[0].find("#define MASK1_user 0x0000ffffu"), std::string::npos);
  EXPECT_NE(m.outputs[0].find("#if !defined(__HIP_PLATFORM_AMD__)"), std::string::npos);
  EXPECT_NE(m.outputs[0].find("float __shfl_down(float v, unsigned d) {\n  return __shfl_down(v, d);\n}\n#endif\n"),
            std::string::npos);
  // The other file's uses follow; its CUDA 9 call becomes HIP's.
  EXPECT_NE(m.outputs[1].find("(threadIdx.x & MASK1_user)"), std::string::npos);
  // (the legacy call keeps its spelling for the way back, which writes `_sync` forms otherwise)
  EXPECT_NE(m.outputs[1].find("v += __shfl_down /* ferry-cuda: __shfl_down */(v, 1);"), std::string::npos);
  EXPECT_NE(m.outputs[1].find("v += __shfl_down(v, 2);"), std::string::npos);
  EXPECT_EQ(count(m.diags, "FRY4101"), 1u);
  EXPECT_EQ(count(m.diags, "FRY4103"), 1u);
}

TEST(HipNameClash, MigratingTheOutputAgainChangesNothing) { expect_fixed_point(kProject, migrate_project(kProject)); }

TEST(HipNameClash, AllOrNothingWhenAUseIsExcluded) {
  // A use on a `ferry: ignore` line in another file cannot be renamed: nothing is, and the
  // declaration is reported.
  const Migrated m = migrate_project({{"ids.cuh", "__device__ unsigned __smid(int w) { return threadIdx.x % w; }\n"},
                                      {"k.cu",
                                       "#include \"ids.cuh\"\n"
                                       "__global__ void k(int* o) {\n"
                                       "  o[0] = __smid(2);\n"
                                       "  o[1] = __smid(4);  // ferry: ignore\n"
                                       "}\n"}});
  EXPECT_TRUE(m.ctx.clash_renames.empty());
  EXPECT_EQ(m.ctx.clash_kept.at("__smid"), "k.cu:4");
  EXPECT_EQ(m.outputs[0].find("__smid_user"), std::string::npos);
  EXPECT_EQ(m.outputs[1].find("__smid_user"), std::string::npos);
  EXPECT_EQ(count(m.diags, "FRY4106"), 1u);
  EXPECT_EQ(count(m.diags, "FRY4101"), 0u);
  // An excluded `ferry: off` region in the header holding the declaration: the same.
  const Migrated off = migrate_project({{"ids.cuh",
                                         "// ferry: off\n"
                                         "__device__ unsigned __smid(int w) { return threadIdx.x % w; }\n"
                                         "// ferry: on\n"},
                                        {"k.cu", "__global__ void k(int* o) { o[0] = __smid(2); }\n"}});
  EXPECT_TRUE(off.ctx.clash_renames.empty());
  EXPECT_EQ(off.outputs[1].find("__smid_user"), std::string::npos);
  // Without the exclusion the same tree is renamed everywhere, header and source together.
  const Migrated r = migrate_project({{"ids.cuh", "__device__ unsigned __smid(int w) { return threadIdx.x % w; }\n"},
                                      {"k.cu", "__global__ void k(int* o) { o[0] = __smid(2); }\n"}});
  EXPECT_EQ(r.ctx.clash_renames.at("__smid"), "__smid_user");
  EXPECT_NE(r.outputs[0].find("__smid_user(int w)"), std::string::npos);
  EXPECT_NE(r.outputs[1].find("__smid_user(2)"), std::string::npos);
}

TEST(HipNameClash, AvoidsNamesAlreadyTaken) {
  const Migrated m = migrate_project({{"a.cu",
                                       "__device__ unsigned __smid(int w) { return threadIdx.x % w; }\n"
                                       "__device__ int __smid_user = 0;\n"}});
  EXPECT_EQ(m.ctx.clash_renames.at("__smid"), "__smid_user2");
}

TEST(HipProvided, CanonicalParameterTypes) {
  using hip::canonical_param_type;
  EXPECT_EQ(canonical_param_type({"const", "float4", "&"}), "float4");
  EXPECT_EQ(canonical_param_type({"float4", "const", "&"}), "float4");
  EXPECT_EQ(canonical_param_type({"float4", "&"}), "float4&");
  EXPECT_EQ(canonical_param_type({"unsigned", "int"}), "unsigned");
  EXPECT_EQ(canonical_param_type({"unsigned", "long", "long", "int", "*"}), "unsigned long long*");
  EXPECT_EQ(canonical_param_type({"long", "int"}), "long");
  EXPECT_EQ(canonical_param_type({"std", "::", "uint32_t"}), "unsigned");
  EXPECT_EQ(canonical_param_type({"const", "float", "*"}), "const float*");
  EXPECT_EQ(canonical_param_type({"float", "*", "const"}), "float*");
  EXPECT_EQ(canonical_param_type({"const", "int"}), "int");
  EXPECT_EQ(canonical_param_type({"signed", "char"}), "signed char");
}

TEST(HipProvided, GuardsOnlyWhatHipDefines) {
  const Migrated m =
      migrate_project({{"m.cuh",
                        "inline __host__ __device__ void operator+=(float4& a, const float4& b) { a.x += b.x; }\n"
                        "inline __host__ __device__ void operator+=(float4& a, float s) { a.x += s; }\n"
                        "template <class T> __device__ T atomicMax(T* p, T v, int) { return v; }\n"
                        "struct S { __device__ void operator+=(float4 b) {} };\n"
                        "#ifdef __HIP_PLATFORM_AMD__\n"
                        "#else\n"
                        "__device__ float atomicMax(float* p, float v) { return v; }\n"
                        "#endif\n"
                        "__device__ float atomicMin(float* __restrict__ p, float v) { return v; }  // trailing\n"}});
  EXPECT_EQ(m.outputs[0],
            "#include <hip/hip_runtime.h> /* ferry-cuda: (none) */\n"  // added: HIP -> CUDA drops it again
            "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define this [FRY4103]\n"
            "inline __host__ __device__ void operator+=(float4& a, const float4& b) { a.x += b.x; }\n"
            "#endif\n"
            "inline __host__ __device__ void operator+=(float4& a, float s) { a.x += s; }\n"
            "template <class T> __device__ T atomicMax(T* p, T v, int) { return v; }\n"
            "struct S { __device__ void operator+=(float4 b) {} };\n"
            "#ifdef __HIP_PLATFORM_AMD__\n"
            "#else\n"
            "__device__ float atomicMax(float* p, float v) { return v; }\n"
            "#endif\n"
            "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define this [FRY4103]\n"
            "__device__ float atomicMin(float* __restrict__ p, float v) { return v; }  // trailing\n"
            "#endif\n");
  EXPECT_EQ(count(m.diags, "FRY4103"), 2u);
  std::vector<std::pair<std::string, std::string>> again = {{"m.cuh", m.outputs[0]}};
  EXPECT_EQ(migrate_project(again).outputs[0], m.outputs[0]);
}

TEST(HipNameClash, ApiNamesAreNeverClashes) {
  // A compat header that maps CUDA names to HIP names, a HIP file of the same tree, and a
  // program that declares the driver API itself: nothing is renamed, in either round.
  const std::vector<std::pair<std::string, std::string>> tree = {
      {"compat.h",
       "#pragma once\n#include <hip/hip_runtime.h>\n"
       "#define cudaMalloc hipMalloc\n#define hipStreamPerThread ((hipStream_t)2)\n"
       "#define __shfl_xor_sync(mask, v, l, w) __shfl_xor(v, l, w)\n"},
      {"native.hip", "#include <hip/hip_runtime.h>\ntypedef hipStream_t stream_t;\nhipStream_t s;\n"},
      {"dynlink.h",
       "typedef int CUresult;\nCUresult cuInit(unsigned int flags) { return 0; }\n"
       "typedef CUresult tcuDeviceGet(int*, int);\nextern tcuDeviceGet* cuDeviceGet;\n"}};
  const Migrated first = migrate_project(tree);
  EXPECT_TRUE(first.ctx.clash_renames.empty());
  // The project's own mapping keeps its name (FRY1313): `#define hipMalloc hipMalloc` would redefine HIP's.
  EXPECT_NE(first.outputs[0].find("#define cudaMalloc hipMalloc\n"), std::string::npos);
  EXPECT_EQ(count(first.diags, "FRY1313"), 1u);
  EXPECT_NE(first.outputs[1].find("hipStream_t s;"), std::string::npos);
  // cuInit(unsigned) becomes hipInit(unsigned), which HIP defines: kept for CUDA only.
  EXPECT_NE(first.outputs[2].find("#if !defined(__HIP_PLATFORM_AMD__)"), std::string::npos);
  expect_fixed_point(tree, first);
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
  EXPECT_NE(migrate_project(src, ggl).outputs[0].find("hipLaunchKernelGGL(k, 1, 64, 0, 0, p);"), std::string::npos);
  EXPECT_NE(migrate_project(src).outputs[0].find("k<<<1, 64>>>(p);"), std::string::npos);
}

TEST(HipWarp, UserShimDeclarationIsNotRewritten) {
  // A compatibility definition of a *_sync intrinsic for old toolkits is the user's function.
  const Migrated m =
      migrate_project({{"a.cu", "__device__ inline int __any_sync(unsigned mask, int p) { return __any(p); }\n"}});
  EXPECT_NE(m.outputs[0].find("int __any_sync(unsigned mask, int p)"), std::string::npos);
}

TEST(HipSolverArgs, OnlyTheSolversOwnArgumentsBecomeHipsolverNames) {
  const Migrated m =
      migrate_project({{"a.cu",
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
  EXPECT_NE(out.find("hipblasStrsm(b, HIPBLAS_SIDE_LEFT, HIPBLAS_FILL_MODE_UPPER, HIPBLAS_OP_N,"), std::string::npos)
      << out;
  EXPECT_NE(out.find("hipsolverDnSormqr(h, HIPSOLVER_SIDE_RIGHT, (HIPSOLVER_OP_C)"), std::string::npos) << out;
  EXPECT_NE(out.find("cusolverDnSgetrs(h, CUBLAS_OP_C,"), std::string::npos) << out;  // excluded line untouched
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
  rocblas.values["hip-version"] = "6.2";  // rocBLAS's enums differ from hipSOLVER's in every release
  const Migrated m = migrate_project(src, rocblas);
  EXPECT_EQ(count(m.diags, "FRY4102"), 0u);
  ASSERT_EQ(count(m.diags, "FRY1312"), 1u);
  for (const Diagnostic& d : m.diags)
    if (to_string(d.code) == "FRY1312") {
      EXPECT_EQ(d.line, 4u);
      EXPECT_NE(d.message.find("rocblas_fill after migration"), std::string::npos) << d.message;
    }
  EXPECT_NE(m.outputs[0].find("const rocblas_fill uplo = rocblas_fill_lower;"), std::string::npos) << m.outputs[0];
  EXPECT_NE(m.outputs[0].find("hipsolverDnSpotrf(h, uplo, 4,"), std::string::npos) << m.outputs[0];  // undeclared yet
  EXPECT_NE(
      m.outputs[0].find("hipsolverDnSpotrf(h, (static_cast<hipsolverFillMode_t>(uplo)) /* ferry-cuda: uplo */, 4,"),
      std::string::npos)
      << m.outputs[0];
  EXPECT_NE(m.outputs[0].find("static_cast<hipsolverFillMode_t>(uplo), 4"), std::string::npos) << m.outputs[0];
}

// The cast is written by hipSOLVER's release: before ROCm 6.0 its enums are its own; from 6.0 they
// are aliases of hipBLAS's and the migrated variable is passed as it is.
TEST(HipSolverArgs, EnumVariablesAreCastBeforeRocm60Only) {
  const std::vector<std::pair<std::string, std::string>> src = {
      {"a.cu",
       "cublasOperation_t op(bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; }\n"
       "void g(cusolverDnHandle_t h, cublasFillMode_t uplo, double* A, int* n) {\n"
       "  cusolverDnDpotrf_bufferSize(h, uplo, 4, A, 4, n);\n"
       "  cusolverDnDgetrs(h, op(true), 4, 1, A, 4, n, A, 4, n);\n"
       "}\n"}};
  for (const char* version : {"5.2", "5.7", "6.0", "6.2"}) {
    Options o;
    o.values["hip-version"] = version;
    const Migrated m = migrate_project(src, o);
    const bool old = std::string_view(version) < "6.0";
    EXPECT_EQ(count(m.diags, "FRY1312"), old ? 2u : 0u) << version;
    EXPECT_EQ(count(m.diags, "FRY4102"), 0u) << version;
    EXPECT_EQ(m.outputs[0].find("(static_cast<hipsolverFillMode_t>(uplo)) /* ferry-cuda: uplo */") != std::string::npos,
              old)
        << version << m.outputs[0];
    EXPECT_EQ(m.outputs[0].find("(static_cast<hipsolverOperation_t>(op(true))) /* ferry-cuda: op(true) */") !=
                  std::string::npos,
              old)
        << version << m.outputs[0];
  }
}

TEST(HipReservedNames, ListHoldsHipOnlyNames) {
  const auto names = hip::load_reserved_names();
  EXPECT_TRUE(names.contains("__shfl_xor"));
  EXPECT_TRUE(names.contains("__lane_id"));
  EXPECT_TRUE(names.contains("HIP_DYNAMIC_SHARED"));
  EXPECT_TRUE(names.contains("hipMalloc"));
  EXPECT_FALSE(names.contains("__syncwarp"));  // absent from HIP 5.2
  EXPECT_FALSE(names.contains("__popc"));      // CUDA defines it too
}

// WMMA -> rocWMMA: the shape check reads rules/rocwmma_blocks.tsv per architecture; a fragment
// rocWMMA has on gfx908 and gfx90a passes, one it has on neither or only on one is FRY1401 and
// names where it exists; the lane math of a WMMA kernel is warp code (warnings, not notes).
TEST(HipWmma, ShapesPerArchitectureAndWavefrontFragments) {
  const Migrated m =
      migrate_project({{"w.cu",
                        "#include <mma.h>\n"
                        "#define WARP_SIZE 32\n"
                        "using namespace nvcuda;\n"
                        "__global__ void k(const __nv_bfloat16* a, const double* d, float* c) {\n"
                        "  const int warp = threadIdx.x / WARP_SIZE;\n"
                        "  wmma::fragment<wmma::matrix_a, 16, 16, 8, __nv_bfloat16, wmma::row_major> b8;\n"
                        "  wmma::fragment<wmma::matrix_a, 16, 16, 4, double, wmma::row_major> f64;\n"
                        "  wmma::fragment<wmma::matrix_a, 32, 32, 8, half, wmma::row_major> h;\n"
                        "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;\n"
                        "  wmma::fill_fragment(acc, 0.0f);\n"
                        "  wmma::store_matrix_sync(c + warp * 256, acc, 16, wmma::mem_row_major);\n"
                        "}\n"}});
  const std::string& out = m.outputs[0];
  EXPECT_NE(out.find("#include <rocwmma/rocwmma.hpp>"), std::string::npos) << out;
  EXPECT_NE(out.find("namespace wmma = rocwmma;"), std::string::npos) << out;
  EXPECT_NE(out.find("rocwmma::fragment<rocwmma::matrix_a, 16, 16, 8, rocwmma::bfloat16_t, rocwmma::row_major>"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("nvcuda"), std::string::npos) << out;
  std::vector<std::string> lacks;
  for (const auto& d : m.diags)
    if (to_string(d.code) == "FRY1401") lacks.push_back(d.message);
  ASSERT_EQ(lacks.size(), 2u);
  // bf16 16x16x8: gfx908 only (gfx90a's bf16 blocks start at K = 16); f64 16x16x4: gfx90a and later
  EXPECT_NE(lacks[0].find("16x16x8 of bf16: rocWMMA has no such block on gfx90a (only on gfx908)"), std::string::npos)
      << lacks[0];
  EXPECT_NE(lacks[1].find("16x16x4 of f64: rocWMMA has no such block on gfx908 (only on gfx90a, gfx942, gfx950)"),
            std::string::npos)
      << lacks[1];
  bool width_warning = false;
  for (const auto& d : m.diags)
    if (to_string(d.code) == "FRY2204") {
      width_warning = d.severity == Severity::Warning &&
                      d.hint.find("WMMA fragment belongs to a whole wavefront") != std::string::npos;
    }
  EXPECT_TRUE(width_warning);
}

// The one-warp-per-wavefront form of WMMA code (docs/wave64.md, WMMA): how each way of writing a
// launch's block is doubled, or why it is not (condition 3).
TEST(HipWmma, DoubledBlocksOrTheReasonNot) {
  const auto run = [](const std::string& host) {
    return migrate_project({{"g.cu",
                             "#include <mma.h>\n"
                             "using namespace nvcuda;\n"
                             "__global__ void k(const half* a, float* d) {\n"
                             "  const int warp = threadIdx.x / 32;\n"
                             "  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
                             "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;\n"
                             "  wmma::fill_fragment(acc, 0.0f);\n"
                             "  wmma::load_matrix_sync(fa, a + warp * 256, 16);\n"
                             "  wmma::store_matrix_sync(d + warp * 256, acc, 16, wmma::mem_row_major);\n"
                             "}\n" +
                                 host}});
  };
  const auto hint = [](const Migrated& m) {
    for (const auto& d : m.diags)
      if (to_string(d.code) == "FRY2202") return d.severity == Severity::Note ? "fixed: " + d.hint : d.hint;
    return std::string("no FRY2202");
  };
  struct Case {
    const char* host;
    const char* want;  // in the output when fixed, in the hint when not
    bool fixed;
  };
  const Case cases[] = {
      {"void f(const half* a, float* d) { dim3 b(64, 4); k<<<1, b>>>(a, d); }",
       "k<<<1, dim3(2 * b.x, b.y, b.z) /* ferry-cuda: b */>>>", true},
      {"void f(const half* a, float* d) { k<<<1, dim3(64, 2)>>>(a, d); }",
       "k<<<1, dim3(2 * (64), 2) /* ferry-cuda: dim3(64, 2) */>>>", true},
      {"void f(const half* a, float* d) { int t = 96; k<<<1, t>>>(a, d); }", "k<<<1, 2 * (t) /* ferry-cuda: t */>>>",
       true},
      {"void f(const half* a, float* d) { dim3 b(64, 16); k<<<1, b>>>(a, d); }",
       "would have 2048 threads, more than 1024", false},
      {"void f(const half* a, float* d, bool w) { dim3 b(64); if (w) { b.x = 128; } k<<<1, b>>>(a, d); }",
       "'b.x' is assigned after the launch or in another block", false},
      {"void f(const half* a, float* d) { dim3 b(64); k<<<1, b>>>(a, d); b.x = 128; k<<<1, b>>>(a, d); }",
       "'b.x' is assigned after the launch or in another block", false},
      {"void f(const half* a, float* d) { k<<<1, 48>>>(a, d); }", "is 48 threads wide, not whole 32-thread warps",
       false},
      {"void f(const half* a, float* d, dim3 b) { k<<<1, b>>>(a, d); }", "it is a dim3 parameter", false},
      {"void f(const half* a, float* d) { int n; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 128, 0);\n"
       "  k<<<1, 128>>>(a, d); }",
       "'k' is named outside its launches", false},
  };
  for (const Case& c : cases) {
    const Migrated m = run(c.host);
    if (c.fixed) {
      EXPECT_NE(m.outputs[0].find(c.want), std::string::npos) << c.host << "\n" << m.outputs[0];
      EXPECT_NE(m.outputs[0].find("threadIdx.x / 64 /* ferry-cuda: 32 */"), std::string::npos) << m.outputs[0];
      EXPECT_TRUE(hint(m).starts_with("fixed: ")) << c.host << "\n" << hint(m);
      expect_fixed_point({{"g.cu", std::string()}}, m);
    } else {
      EXPECT_EQ(m.outputs[0].find("/ 64"), std::string::npos) << c.host << "\n" << m.outputs[0];
      EXPECT_NE(hint(m).find(c.want), std::string::npos) << c.host << "\n" << hint(m);
    }
  }
}

}  // namespace
// A header that declares the driver API itself (a loader fills the pointers from libcuda):
// FRY1410 on it and on the include line that names it; a header with a few such names is not one.
TEST(HipStandIn, HeaderThatDeclaresTheDriverApiIsReported) {
  std::string stand_in = "#pragma once\ntypedef int CUresult;\n";
  for (const char* n : {"cuInit",
                        "cuDriverGetVersion",
                        "cuDeviceGet",
                        "cuDeviceGetCount",
                        "cuDeviceGetName",
                        "cuDeviceTotalMem",
                        "cuDeviceGetAttribute",
                        "cuDeviceComputeCapability",
                        "cuDeviceGetPCIBusId",
                        "cuDeviceGetByPCIBusId",
                        "cuDeviceGetP2PAttribute",
                        "cuDeviceCanAccessPeer",
                        "cuDevicePrimaryCtxRetain",
                        "cuDevicePrimaryCtxRelease",
                        "cuDevicePrimaryCtxReset",
                        "cuDevicePrimaryCtxGetState",
                        "cuDevicePrimaryCtxSetFlags",
                        "cuCtxCreate",
                        "cuCtxDestroy",
                        "cuCtxGetCurrent",
                        "cuCtxSetCurrent",
                        "cuCtxPushCurrent",
                        "cuCtxPopCurrent",
                        "cuCtxGetDevice",
                        "cuCtxSynchronize",
                        "cuCtxGetApiVersion",
                        "cuCtxGetCacheConfig",
                        "cuCtxSetCacheConfig",
                        "cuCtxGetSharedMemConfig",
                        "cuCtxSetSharedMemConfig",
                        "cuCtxGetFlags",
                        "cuCtxEnablePeerAccess",
                        "cuCtxDisablePeerAccess",
                        "cuCtxGetLimit",
                        "cuCtxSetLimit",
                        "cuCtxGetStreamPriorityRange",
                        "cuModuleLoad",
                        "cuModuleLoadData",
                        "cuModuleLoadDataEx",
                        "cuModuleUnload",
                        "cuModuleGetFunction",
                        "cuModuleGetGlobal",
                        "cuModuleGetTexRef",
                        "cuLaunchKernel",
                        "cuLaunchCooperativeKernel",
                        "cuMemAlloc",
                        "cuMemFree",
                        "cuMemcpyHtoD",
                        "cuMemcpyDtoH",
                        "cuMemsetD8",
                        "cuStreamCreate",
                        "cuStreamDestroy"})
    stand_in += "extern void *" + std::string(n) + ";\n";
  const std::vector<std::pair<std::string, std::string>> tree = {
      {"inc/drvapi.h", stand_in},
      {"few.h", "#pragma once\ntypedef int CUresult;\nextern void *cuInit;\nint mine;\n"},
      {"loader.c", "#include \"inc/drvapi.h\"\n#include \"few.h\"\nvoid *cuInit;\n"},
      {"main.cpp", "#include \"drvapi.h\"\nint main() { return 0; }\n"},
  };
  const Migrated m = migrate_project(tree);
  ASSERT_EQ(m.ctx.cuda_stand_ins.size(), 1u);
  EXPECT_EQ(m.ctx.cuda_stand_ins.count("inc/drvapi.h"), 1u);
  std::vector<std::string> at;
  for (const Diagnostic& d : m.diags)
    if (to_string(d.code) == "FRY1410") at.push_back(d.file + ":" + std::to_string(d.line));
  // The header's first mapped declaration, loader.c's include beside it, main.cpp's through -I.
  EXPECT_EQ(at, (std::vector<std::string>{"inc/drvapi.h:2", "loader.c:1", "main.cpp:1"}));
  expect_fixed_point(tree, m);
}

}  // namespace ferry::targets
