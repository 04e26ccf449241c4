// verify: parsing compiler output, mapping errors to original lines and classification
// (verify_run_test.cpp: the whole run over small trees with canned compiler output; the real
// toolchain runs in tests/e2e/test_verify*.sh).
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "verify/classify.h"
#include "verify/compiler_output.h"
#include "verify/plan.h"
#include "verify/verify.h"

using namespace ferry::verify;

namespace {

// Real hipcc 5.2 output for a migrated file whose cooperative-groups include was rewritten.
constexpr const char* kClangChain =
    "In file included from no_hip_equivalent/kernel.cu:6:\n"
    "In file included from /usr/include/hip/hip_cooperative_groups.h:38:\n"
    "In file included from /usr/include/hip/amd_detail/amd_hip_cooperative_groups.h:36:\n"
    "/usr/include/hip/amd_detail/hip_cooperative_groups_helper.h:117:22: error: use of undeclared identifier 'hipBlockDim_z'\n"
    "  return (hipBlockDim_z * hipGridDim_z) *\n"
    "                     ^\n"
    "no_hip_equivalent/kernel.cu:19:47: error: use of undeclared identifier '__nanosleep'\n"
    "2 errors generated when compiling for gfx906.\n";

constexpr const char* kNvccTypo =
    "typo/kernel.cu(16): error: identifier \"cudaMemcpyHostToDevise\" is undefined\n"
    "      cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevise);\n"
    "                                          ^\n\n"
    "1 error detected in the compilation of \"typo/kernel.cu\".\n";

constexpr const char* kGccMissing =
    "In file included from g.cpp:1:\n"
    "a.h:1:10: fatal error: hipblas/hipblas.h: No such file or directory\n"
    "    1 | #include <hipblas/hipblas.h>\n"
    "compilation terminated.\n";

LineMaps one_map(const std::string& rel, std::vector<std::uint32_t> out_to_orig, std::vector<std::uint32_t> changed,
                 std::map<std::uint32_t, std::vector<std::string>> flagged = {}) {
  LineMaps m;
  FileLineMap f;
  f.map.out_to_orig = std::move(out_to_orig);
  f.map.changed_out_lines = std::move(changed);
  f.flagged = std::move(flagged);
  m.files[rel] = std::move(f);
  return m;
}

}  // namespace

TEST(VerifyParse, ClangErrorsWithIncludeChain) {
  const auto errs = parse_compiler_output(kClangChain);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].at.file, "/usr/include/hip/amd_detail/hip_cooperative_groups_helper.h");
  EXPECT_EQ(errs[0].at.line, 117u);
  EXPECT_EQ(errs[0].at.col, 22u);
  ASSERT_EQ(errs[0].include_chain.size(), 3u);
  EXPECT_EQ(errs[0].include_chain[0].file, "no_hip_equivalent/kernel.cu");
  EXPECT_EQ(errs[0].include_chain[0].line, 6u);
  EXPECT_TRUE(errs[1].include_chain.empty());
  EXPECT_EQ(errs[1].message, "use of undeclared identifier '__nanosleep'");
}

TEST(VerifyParse, NvccAndGccFormats) {
  const auto nv = parse_compiler_output(kNvccTypo);
  ASSERT_EQ(nv.size(), 1u);
  EXPECT_EQ(nv[0].at.file, "typo/kernel.cu");
  EXPECT_EQ(nv[0].at.line, 16u);
  EXPECT_EQ(nv[0].at.col, 0u);
  const auto gcc = parse_compiler_output(kGccMissing);
  ASSERT_EQ(gcc.size(), 1u);
  EXPECT_TRUE(gcc[0].fatal);
  EXPECT_EQ(missing_header(gcc[0]).value_or(""), "hipblas/hipblas.h");
  ASSERT_EQ(gcc[0].include_chain.size(), 1u);
  EXPECT_EQ(gcc[0].include_chain[0].file, "g.cpp");
}

TEST(VerifyParse, MissingHeadersAndLibraries) {
  const auto clang = parse_compiler_output("src/gemm.cu:6:10: fatal error: 'hipblas/hipblas.h' file not found\n");
  ASSERT_EQ(clang.size(), 1u);
  EXPECT_EQ(missing_header(clang[0]).value_or(""), "hipblas/hipblas.h");
  EXPECT_EQ(known_missing_library("roctracer/roctx.h"), "roctracer (roctx)");
  const auto edg = parse_compiler_output("x.cu(3): catastrophic error: cannot open source file \"cudnn.h\"\n");
  ASSERT_EQ(edg.size(), 1u);
  EXPECT_EQ(missing_header(edg[0]).value_or(""), "cudnn.h");
  EXPECT_EQ(known_missing_library("hipblas/hipblas.h"), "hipBLAS");
  EXPECT_EQ(known_missing_library("hipblaslt/hipblaslt.h"), "hipBLASLt");
  EXPECT_EQ(known_missing_library("rccl/rccl.h"), "RCCL");
  EXPECT_EQ(known_missing_library("hipcub/hipcub.hpp"), "hipCUB");
  EXPECT_EQ(known_missing_library("thrust/device_vector.h"), "rocThrust");
  EXPECT_EQ(known_missing_library("hip/hip_runtime.h"), "");
  EXPECT_EQ(known_missing_library("rocprim/rocprim.hpp"), "");  // Debian ships it
  EXPECT_EQ(known_missing_library("torch/extension.h"), "PyTorch (C++ headers)");
  EXPECT_EQ(known_missing_library("ATen/hip/HIPContext.h"), "PyTorch for ROCm");
}

TEST(VerifyClassify, PyTorchCudaHeadersNeedPyTorchForRocm) {
  // Real hipcc 5.2 output: Debian's (CPU) PyTorch ships ATen/cuda/, which includes the CUDA runtime.
  const auto errs = parse_compiler_output(
      "In file included from ext.cu:2:\n"
      "/usr/lib/python3/dist-packages/torch/include/ATen/cuda/CUDAContext.h:5:10: fatal error: "
      "'cuda_runtime_api.h' file not found\n");
  ASSERT_EQ(errs.size(), 1u);
  const LineMaps maps = one_map("ext.cu", {1, 2, 3}, {1});
  ClassifyContext ctx;
  ctx.root = "/out";
  ctx.cwd = "/out";
  ctx.maps = &maps;
  MappedError m = map_error(errs[0], ctx);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::MissingDependency);
  EXPECT_EQ(m.library, "PyTorch for ROCm");
  EXPECT_NE(m.reason.find("ATen/cuda/CUDAContext.h"), std::string::npos);
}

TEST(VerifyMap, LineMapsFromJsonAndMapping) {
  const LineMaps maps = line_maps_from_json(
      R"({"version":1,"files":{"src/a.cu":{"out_to_orig":[1,2,2,3,4],"changed_out_lines":[2,3],"flagged_orig_lines":[[4,"FRY1001"]]}}})");
  const FileLineMap* f = maps.find("src/a.cu");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->map.original_line(5), 4u);
  EXPECT_TRUE(f->map.is_changed(3));
  EXPECT_FALSE(f->map.is_changed(4));

  ClassifyContext ctx;
  ctx.root = "/t";
  ctx.cwd = "/t";
  ctx.maps = &maps;
  const auto errs = parse_compiler_output(
      "src/a.cu:5:3: error: use of undeclared identifier '__nanosleep'\n"
      "/t/src/a.cu:4:1: error: bad\n");
  MappedError m0 = map_error(errs[0], ctx);
  ASSERT_TRUE(m0.origin);
  EXPECT_EQ(m0.origin->rel, "src/a.cu");
  EXPECT_EQ(m0.origin->out_line, 5u);
  EXPECT_EQ(m0.origin->orig_line, 4u);
  EXPECT_FALSE(m0.origin->changed);
  EXPECT_EQ(m0.origin->flagged, std::vector<std::string>{"FRY1001"});
  classify(m0, ctx);
  EXPECT_EQ(m0.cls, FailureClass::Diagnosed);  // migrate reported FRY1001 on the original line
  EXPECT_NE(m0.reason.find("FRY1001"), std::string::npos);

  MappedError m1 = map_error(errs[1], ctx);  // absolute path inside the tree
  ASSERT_TRUE(m1.origin);
  EXPECT_EQ(m1.origin->orig_line, 3u);
  EXPECT_FALSE(m1.origin->changed);  // output line 4 is an untouched line
  EXPECT_EQ(tree_relative("/t", "../elsewhere/x.h", "/t"), std::nullopt);
}

TEST(VerifyClassify, DiagnosedOnlyForCodesThatSayNotMigrated) {
  EXPECT_TRUE(reports_not_migrated("FRY1001"));
  EXPECT_TRUE(reports_not_migrated("FRY1003"));
  EXPECT_TRUE(reports_not_migrated("FRY1301"));
  EXPECT_FALSE(reports_not_migrated("FRY4001"));  // a review note: the line was migrated
  EXPECT_FALSE(reports_not_migrated("FRY1302"));  // a compat header served it
  // A line flagged with a review warning only, and changed: still Ferry's.
  const LineMaps maps = one_map("a.cu", {1, 2, 3}, {2}, {{2, {"FRY4001"}}, {3, {"FRY1301", "FRY1301"}}});
  ClassifyContext ctx;
  ctx.root = "/t";
  ctx.cwd = "/t";
  ctx.maps = &maps;
  auto errs = parse_compiler_output(
      "a.cu:2:1: error: use of undeclared identifier 'hipFoo'\n"
      "a.cu:3:1: error: unknown type name 'cudaStreamAttrValue'\n");
  MappedError m = map_error(errs[0], ctx);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::MigrationDefect);
  MappedError d = map_error(errs[1], ctx);
  classify(d, ctx);
  EXPECT_EQ(d.cls, FailureClass::Diagnosed);
  EXPECT_EQ(d.reason, "the migration reported it at this line: FRY1301");
  EXPECT_EQ(unit_class({d}), FailureClass::Diagnosed);
  EXPECT_EQ(unit_class({d, m}), FailureClass::MigrationDefect);
  // The original failing on the same line still says pre-existing.
  OriginalCheck orig;
  orig.state = OriginalCheck::State::Fails;
  orig.error_lines.insert({"a.cu", 3});
  ctx.original = &orig;
  MappedError p = map_error(errs[1], ctx);
  classify(p, ctx);
  EXPECT_EQ(p.cls, FailureClass::PreExisting);
}

TEST(VerifyClassify, SameUndefinedNameAsTheOriginal) {
  // nvcc names an undefined identifier once per file; clang at every use. A use on a changed line
  // of a name the original also lacks is the original's error (olcf hw13's FIXME exercises).
  EXPECT_EQ(nvcc_undefined_name("identifier \"FIXME\" is undefined"), "FIXME");
  EXPECT_EQ(nvcc_undefined_name("expected a \";\""), std::nullopt);
  const LineMaps maps = one_map("a.cu", {1, 2, 3, 4}, {3, 4}, {{3, {"FRY4001"}}});
  ClassifyContext ctx;
  ctx.root = "/t";
  ctx.cwd = "/t";
  ctx.maps = &maps;
  OriginalCheck orig;
  orig.state = OriginalCheck::State::Fails;
  orig.error_lines.insert({"a.cu", 1});
  orig.first_error = "a.cu:1: identifier \"FIXME\" is undefined";
  orig.undefined_names.insert("FIXME");
  ctx.original = &orig;
  auto errs = parse_compiler_output(
      "a.cu:3:1: error: use of undeclared identifier 'FIXME'\n"
      "a.cu:4:1: error: use of undeclared identifier 'hipGraphFoo'\n");
  ASSERT_EQ(errs.size(), 2u);
  MappedError same = map_error(errs[0], ctx);
  classify(same, ctx);
  EXPECT_EQ(same.cls, FailureClass::PreExisting);
  EXPECT_NE(same.reason.find("same undeclared name 'FIXME'"), std::string::npos);
  MappedError other = map_error(errs[1], ctx);
  classify(other, ctx);
  EXPECT_EQ(other.cls, FailureClass::MigrationDefect);  // a name only the port lacks
}

TEST(VerifyClassify, HeaderStandingInForCudaH) {
  // stand.h carries FRY1410 (one line of it); loader.c includes it and fails after it.
  LineMaps maps = one_map("stand.h", {1, 2, 3, 4}, {2, 3, 4}, {{1, {"FRY1410"}}});
  maps.files.emplace("loader.c", one_map("loader.c", {1, 2, 3}, {2, 3}, {}).files.at("loader.c"));
  maps.files.emplace("other.cu", one_map("other.cu", {1, 2}, {2}, {}).files.at("other.cu"));
  ClassifyContext ctx;
  ctx.root = "/t";
  ctx.cwd = "/t";
  ctx.maps = &maps;
  auto errs = parse_compiler_output(
      "In file included from loader.c:1:\n"
      "./stand.h:3:1: error: typedef redefinition with different types ('unsigned long long' vs 'void *')\n"
      "loader.c:2:1: error: redefinition of 'hipInit' as different kind of symbol\n"
      "other.cu:2:1: error: use of undeclared identifier 'hipFoo'\n");
  ASSERT_EQ(errs.size(), 3u);
  std::vector<MappedError> m;
  for (const CompilerError& e : errs) {
    m.push_back(map_error(e, ctx));
    classify(m.back(), ctx);
  }
  EXPECT_EQ(m[0].cls, FailureClass::Diagnosed);  // any line of the stand-in
  EXPECT_TRUE(m[0].stand_in);
  EXPECT_EQ(m[1].cls, FailureClass::MigrationDefect);  // by itself, a changed line
  EXPECT_FALSE(m[1].stand_in);
  // Classed by its first error, which lies in the stand-in.
  EXPECT_EQ(unit_class({m[0], m[1]}), FailureClass::Diagnosed);
  // A unit whose first error is elsewhere keeps its migration defect.
  EXPECT_EQ(unit_class({m[2], m[0]}), FailureClass::MigrationDefect);
}

TEST(VerifyClassify, InsideRocwmmaWhereTheFileReportedAFragmentItLacks) {
  // a.cu: line 2 declares a u8 fragment (FRY1401), line 3 is its mma_sync (changed by the migration)
  const LineMaps maps = one_map("a.cu", {1, 2, 3}, {1, 2, 3}, {{2, {"FRY1401"}}});
  const LineMaps plain = one_map("a.cu", {1, 2, 3}, {1, 2, 3}, {});
  ClassifyContext ctx;
  ctx.root = "/t";
  ctx.cwd = "/t";
  ctx.maps = &maps;
  const auto errs = parse_compiler_output(
      "In file included from a.cu:1:\n"
      "/opt/rocm/include/rocwmma/internal/mfma.hpp:40:9: error: implicit instantiation of undefined template "
      "'rocwmma::detail::amdgcn_mfma<unsigned char, int, 16, 16>'\n"
      "a.cu:3:5: note: in instantiation of function template specialization 'rocwmma::mma_sync' requested here\n");
  ASSERT_EQ(errs.size(), 1u);
  MappedError m = map_error(errs[0], ctx);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::Diagnosed);
  EXPECT_NE(m.reason.find("FRY1401"), std::string::npos);
  ctx.maps = &plain;  // no FRY1401 in the file: the changed line's defect
  MappedError n = map_error(errs[0], ctx);
  classify(n, ctx);
  EXPECT_EQ(n.cls, FailureClass::MigrationDefect);
}

TEST(VerifyClassify, QuotedNames) {
  EXPECT_EQ(quoted_name("use of undeclared identifier 'atomicInc_system'; did you mean 'atomicAnd_system'?").name,
            "atomicInc_system");
  EXPECT_EQ(quoted_name("unknown type name 'curandStateSobol64'").name, "curandStateSobol64");
  QuotedName q = quoted_name("no member named 'binary_partition' in namespace 'cooperative_groups'; did you mean x?");
  EXPECT_EQ(q.name, "binary_partition");
  EXPECT_EQ(q.scope, "");
  q = quoted_name(
      "no member named 'meta_group_rank' in 'cooperative_groups::thread_block_tile<32, "
      "cooperative_groups::thread_block>'");
  EXPECT_EQ(q.name, "meta_group_rank");
  EXPECT_EQ(q.scope, "thread_block_tile");
  q = quoted_name("no member named 'unifiedAddressing' in 'hipDeviceProp_t'");
  EXPECT_EQ(q.scope, "hipDeviceProp_t");
  EXPECT_EQ(quoted_name("no member named 'x' in 'const struct Foo'").scope, "Foo");
  EXPECT_EQ(quoted_name("invalid instruction").name, "");
}

TEST(VerifyClassify, TargetGapsFromTheVersionModel) {
  const LineMaps maps = one_map("a.cu", {1, 2, 3, 4}, {4});
  TargetGaps gaps;
  gaps.release = "HIP 5.2 (rocm-5.2)";
  gaps.names["binary_partition"] = "HIP has no equivalent";
  gaps.members[{"hipDeviceProp_t", "unifiedAddressing"}] = "HIP 5.2 (rocm-5.2) lacks it; HIP has it from ROCm 6.0";
  ClassifyContext ctx;
  ctx.root = "/t";
  ctx.cwd = "/t";
  ctx.maps = &maps;
  ctx.gaps = &gaps;
  auto errs = parse_compiler_output(
      "a.cu:1:1: error: no member named 'unifiedAddressing' in 'hipDeviceProp_t'\n"
      "a.cu:2:1: error: no member named 'binary_partition' in namespace 'cooperative_groups'\n"
      "a.cu:3:1: error: no member named 'fooBar' in 'hipDeviceProp_t'\n"
      "a.cu:4:1: error: no member named 'unifiedAddressing' in 'hipDeviceProp_t'\n"
      "a.cu:1:1: error: no member named 'binary_partition' in 'hipDeviceProp_t'\n");
  std::vector<MappedError> m;
  for (const auto& e : errs) {
    m.push_back(map_error(e, ctx));
    classify(m.back(), ctx);
  }
  EXPECT_EQ(m[0].cls, FailureClass::TargetGap);
  EXPECT_NE(m[0].reason.find("ROCm 6.0"), std::string::npos);
  EXPECT_EQ(m[1].cls, FailureClass::TargetGap);
  EXPECT_EQ(m[2].cls, FailureClass::Unknown);    // a member the tables do not know
  EXPECT_EQ(m[3].cls, FailureClass::TargetGap);  // on a changed line too: the error is about the name
  EXPECT_EQ(m[4].cls, FailureClass::Unknown);    // a gap name, but as a member of another type
  EXPECT_EQ(unit_class({m[0], m[2]}), FailureClass::TargetGap);
  ctx.gaps = nullptr;
  MappedError n = map_error(errs[0], ctx);
  classify(n, ctx);
  EXPECT_EQ(n.cls, FailureClass::Unknown);
}

TEST(VerifyClassify, InstructionTheArchitectureLacksIsATargetGap) {
  const LineMaps maps = one_map("a.cu", {1, 2}, {1, 2});  // both lines changed by the migration
  ClassifyContext ctx;
  ctx.root = "/t";
  ctx.cwd = "/t";
  ctx.maps = &maps;
  auto errs = parse_compiler_output(
      "a.cu:1:1: error: '__builtin_amdgcn_mfma_f32_16x16x16f16' needs target feature mai-insts\n"
      "a.cu:2:1: error: no matching function for call to 'fill_fragment'\n");
  std::vector<MappedError> m;
  for (const auto& e : errs) {
    m.push_back(map_error(e, ctx));
    classify(m.back(), ctx);
  }
  EXPECT_EQ(m[0].cls, FailureClass::TargetGap);
  EXPECT_NE(m[0].reason.find("gfx90a"), std::string::npos);
  EXPECT_EQ(m[1].cls, FailureClass::MigrationDefect);  // anything else on a changed line still is
}

TEST(VerifyClassify, SystemHeaderThroughChangedInclude) {
  const LineMaps maps = one_map("no_hip_equivalent/kernel.cu", {1, 2, 3, 4, 5, 6, 7}, {6, 7});
  ClassifyContext ctx;
  ctx.root = "/out";
  ctx.cwd = "/out";
  ctx.maps = &maps;
  auto errs = parse_compiler_output(kClangChain);
  MappedError m = map_error(errs[0], ctx);
  ASSERT_TRUE(m.origin);
  EXPECT_TRUE(m.origin->via_include);
  EXPECT_EQ(m.origin->orig_line, 6u);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::MigrationDefect);
  EXPECT_NE(m.reason.find("#include"), std::string::npos);
}

TEST(VerifyClassify, MissingDependencyWinsOverChangedLine) {
  const LineMaps maps = one_map("src/gemm.cu", {1, 2, 3, 4, 5, 6}, {6});
  ClassifyContext ctx;
  ctx.root = "/out";
  ctx.cwd = "/out";
  ctx.maps = &maps;
  auto errs = parse_compiler_output("src/gemm.cu:6:10: fatal error: 'hipblas/hipblas.h' file not found\n");
  MappedError m = map_error(errs[0], ctx);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::MissingDependency);
  EXPECT_EQ(m.library, "hipBLAS");
  // A header Ferry wrote that nobody provides is Ferry's fault...
  errs = parse_compiler_output("src/gemm.cu:6:10: fatal error: 'hip/hip_nonsense.h' file not found\n");
  m = map_error(errs[0], ctx);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::MigrationDefect);
  // ...one the user wrote on an untouched line is a missing dependency.
  errs = parse_compiler_output("src/gemm.cu:2:10: fatal error: 'mylib/mylib.h' file not found\n");
  m = map_error(errs[0], ctx);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::MissingDependency);
}

TEST(VerifyClassify, PreExistingBeatsChangedWhenTheOriginalFailsOnTheSameLine) {
  // The typo line was also rewritten (cudaMemcpy -> hipMemcpy), yet the original fails there.
  const LineMaps maps = one_map("typo/kernel.cu", {}, {4, 16});
  OriginalCheck orig;
  orig.state = OriginalCheck::State::Fails;
  orig.error_lines.insert({"typo/kernel.cu", 16});
  orig.first_error = "typo/kernel.cu:16: identifier \"cudaMemcpyHostToDevise\" is undefined";
  ClassifyContext ctx;
  ctx.root = "/out";
  ctx.cwd = "/out";
  ctx.maps = &maps;
  ctx.original = &orig;
  auto errs = parse_compiler_output(
      "typo/kernel.cu:16:40: error: use of undeclared identifier 'cudaMemcpyHostToDevise'; did you mean "
      "'hipMemcpyHostToDevice'?\n"
      "typo/kernel.cu:9:1: error: something else\n");
  MappedError m = map_error(errs[0], ctx);
  classify(m, ctx);
  EXPECT_EQ(m.cls, FailureClass::PreExisting);
  MappedError other = map_error(errs[1], ctx);  // untouched line, original broken: pre-existing too
  classify(other, ctx);
  EXPECT_EQ(other.cls, FailureClass::PreExisting);
  EXPECT_EQ(unit_class({m, other}), FailureClass::PreExisting);

  orig.state = OriginalCheck::State::Compiles;
  MappedError u = map_error(errs[1], ctx);
  classify(u, ctx);
  EXPECT_EQ(u.cls, FailureClass::Unknown);
  EXPECT_EQ(unit_class({m, u}), FailureClass::PreExisting);
  MappedError d = map_error(errs[0], ctx);
  classify(d, ctx);
  EXPECT_EQ(d.cls, FailureClass::MigrationDefect);
  EXPECT_EQ(unit_class({u, d}), FailureClass::MigrationDefect);
}
