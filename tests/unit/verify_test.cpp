// verify: parsing compiler output, mapping errors to original lines, classification, and the
// whole run over a small tree with canned compiler output (the real toolchain runs in
// tests/e2e/test_verify*.sh).
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "migrate/migrate_tree.h"
#include "targets/target.h"
#include "verify/classify.h"
#include "verify/compiler_output.h"
#include "verify/openmp.h"
#include "verify/plan.h"
#include "verify/torch.h"
#include "verify/verify.h"

namespace fs = std::filesystem;
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

std::string write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

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

TEST(VerifyTorch, FindsTorchIncludesAndReadsTheProbe) {
  EXPECT_EQ(torch_include("#include <cuda_runtime.h>\n  #  include <torch/extension.h>\n"), "torch/extension.h");
  EXPECT_EQ(torch_include("#include \"ATen/cuda/CUDAContext.h\"\n"), "ATen/cuda/CUDAContext.h");
  EXPECT_EQ(torch_include("// #include <torch/extension.h> in a comment line\n#include <vector>\n"), "");
  EXPECT_EQ(torch_include("#include <torchvision/x.h>\n#include \"my_torch/a.h\"\n"), "");

  const fs::path base = fs::temp_directory_path() / ("ferry-verify-torch-" + std::to_string(::getpid()));
  fs::remove_all(base);
  write(base / "inc/torch/extension.h", "#pragma once\n");
  const std::string probe =
      "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n"
      "ferry-torch: version 2.4.0\nferry-torch: abi 1\n"
      "ferry-torch: include " +
      (base / "inc").string() +
      "\n"
      "ferry-torch: include " +
      (base / "inc/torch/csrc/api/include").string() +
      "\n"
      "ferry-torch: include /usr/include/python3.11\n";
  const TorchHeaders t = parse_torch_probe(probe);
  EXPECT_TRUE(t.usable()) << t.problem;
  EXPECT_EQ(t.version, "2.4.0");
  EXPECT_EQ(t.cxx11_abi, 1);
  ASSERT_EQ(t.include_dirs.size(), 3u);
  const auto f = torch_flags(t, "kernels/relu-fused.cu", true);
  EXPECT_EQ(f[0], "-I" + (base / "inc").string());
  EXPECT_NE(std::find(f.begin(), f.end(), "-DTORCH_EXTENSION_NAME=relu_fused"), f.end());
  EXPECT_NE(std::find(f.begin(), f.end(), "-D_GLIBCXX_USE_CXX11_ABI=1"), f.end());
  EXPECT_NE(std::find(f.begin(), f.end(), "-DUSE_ROCM=1"), f.end());
  const auto nv = torch_flags(t, "k.cu", false);
  EXPECT_EQ(std::find(nv.begin(), nv.end(), "-DUSE_ROCM=1"), nv.end());

  // Debian's python3-torch without libtorch-dev: torch imports, its include folder is empty.
  const TorchHeaders bare =
      parse_torch_probe("ferry-torch: version 1.13.0\nferry-torch: include " + (base / "empty").string() + "\n");
  EXPECT_FALSE(bare.usable());
  EXPECT_NE(bare.problem.find("libtorch-dev"), std::string::npos);
  EXPECT_NE(parse_torch_probe("ferry-torch: none ModuleNotFoundError No module named 'torch'\n")
                .problem.find("No module named"),
            std::string::npos);
  fs::remove_all(base);
}

namespace {

// Answers `python -c` with a canned probe output per interpreter, every compile with success.
class PythonRunner final : public ProcessRunner {
 public:
  std::map<std::string, std::string> probes;  // interpreter -> output
  mutable std::mutex mu;
  mutable std::vector<std::vector<std::string>> seen;
  ProcessResult run(const std::vector<std::string>& argv, const fs::path&, std::chrono::milliseconds) const override {
    {
      std::lock_guard lock(mu);
      seen.push_back(argv);
    }
    ProcessResult r;
    r.exit_code = 0;
    if (argv.size() == 3 && argv[1] == "-c") {
      const auto it = probes.find(argv[0]);
      if (it == probes.end()) r.launch_failed = true, r.exit_code = -1;
      else r.output = it->second;
    }
    return r;
  }
};

}  // namespace

TEST(VerifyRun, PyTorchExtensionUnitsGetTorchsIncludePaths) {
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-torchrun-" + std::to_string(::getpid()));
  fs::remove_all(base);
  const fs::path out = base / "out";
  write(out / "ext.cu", "#include <hip/hip_runtime.h>\n#include <torch/extension.h>\n");
  write(out / "plain.cu", "int main() {}\n");
  write(base / "torch/include/torch/extension.h", "#pragma once\n");
  PythonRunner runner;
  runner.probes["py-without"] = "ferry-torch: none ModuleNotFoundError No module named 'torch'\n";
  runner.probes["py-with"] = "ferry-torch: version 2.4.0\nferry-torch: abi 0\nferry-torch: include " +
                             (base / "torch/include").string() + "\n";
  VerifyOptions o;
  o.tree = out;
  o.profiles = ferry::analysis::parse_profile_list("gfx906");
  o.pythons = {"py-missing", "py-without", "py-with"};  // the first that has torch answers
  const VerifyResult r = run_verify(o, runner);
  ASSERT_TRUE(r.torch);
  EXPECT_TRUE(r.torch->usable()) << r.torch->problem;
  EXPECT_EQ(r.torch->python, "py-with");
  EXPECT_EQ(r.torch_user, "ext.cu");
  EXPECT_EQ(r.torch_header, "torch/extension.h");
  ASSERT_EQ(r.units.size(), 2u);
  for (const UnitResult& u : r.units) {
    EXPECT_NE(std::find(u.command.begin(), u.command.end(), "-I" + (base / "torch/include").string()), u.command.end())
        << u.rel;
    EXPECT_NE(std::find(u.command.begin(), u.command.end(), "-DUSE_ROCM=1"), u.command.end()) << u.rel;
  }
  EXPECT_EQ(to_json(r)["torch"]["version"], "2.4.0");

  // No interpreter has torch: a note that says so and what to install; units compile without.
  o.pythons = {"py-without"};
  const VerifyResult none = run_verify(o, runner);
  ASSERT_TRUE(none.torch);
  EXPECT_FALSE(none.torch->usable());
  const std::string notes = text_summary(none);
  EXPECT_NE(notes.find("ext.cu includes PyTorch's <torch/extension.h>, but"), std::string::npos) << notes;
  for (const UnitResult& u : none.units)
    EXPECT_EQ(std::find(u.command.begin(), u.command.end(), "-DUSE_ROCM=1"), u.command.end());

  // A tree without PyTorch headers asks no interpreter.
  fs::remove(out / "ext.cu");
  const std::size_t asked = runner.seen.size();
  const VerifyResult plain = run_verify(o, runner);
  EXPECT_FALSE(plain.torch);
  for (std::size_t i = asked; i < runner.seen.size(); ++i) EXPECT_NE(runner.seen[i][1], "-c");
  fs::remove_all(base);
}

namespace {

// Answers `<wrapper> --showme:compile` for the wrappers it knows, every compile with success.
class MpiRunner final : public ProcessRunner {
 public:
  std::map<std::string, std::string> wrappers;  // wrapper -> its --showme:compile output
  ProcessResult run(const std::vector<std::string>& argv, const fs::path&, std::chrono::milliseconds) const override {
    ProcessResult r;
    r.exit_code = 0;
    if (argv.size() == 2 && argv[1] == "--showme:compile") {
      const auto it = wrappers.find(argv[0]);
      if (it == wrappers.end()) r.launch_failed = true, r.exit_code = -1;
      else r.output = it->second;
    }
    return r;
  }
};

}  // namespace

TEST(VerifyMpi, IncludesAndWrapperFlags) {
  EXPECT_TRUE(includes_mpi("#include <stdio.h>\n  #  include \"mpi.h\"\n"));
  EXPECT_TRUE(includes_mpi("#include <mpi.h>\n"));
  EXPECT_FALSE(includes_mpi("// #include <mpi.h>\n#include <mpi_ext.h>\nMPI_Init(0, 0);\n"));
  EXPECT_EQ(
      parse_mpi_compile_flags("-I/usr/lib/x86_64-linux-gnu/openmpi/include -DOMPI_SKIP_MPICXX -O2 -pthread\n"),
      (std::vector<std::string>{"-I/usr/lib/x86_64-linux-gnu/openmpi/include", "-DOMPI_SKIP_MPICXX", "-pthread"}));
}

TEST(VerifyRun, MpiUnitsGetTheWrappersIncludePath) {
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-mpirun-" + std::to_string(::getpid()));
  fs::remove_all(base);
  const fs::path out = base / "out";
  write(out / "ring.cu", "#include <hip/hip_runtime.h>\n#include <mpi.h>\n");
  write(out / "plain.cu", "int main() {}\n");
  MpiRunner runner;
  runner.wrappers["mpic++"] = "-I/opt/mpi/include -pthread\n";  // mpicxx is absent: the next answers
  VerifyOptions o;
  o.tree = out;
  o.profiles = ferry::analysis::parse_profile_list("gfx906");
  const VerifyResult r = run_verify(o, runner);
  ASSERT_TRUE(r.mpi);
  EXPECT_TRUE(r.mpi->usable()) << r.mpi->problem;
  EXPECT_EQ(r.mpi->wrapper, "mpic++");
  EXPECT_EQ(r.mpi_user, "ring.cu");
  ASSERT_EQ(r.units.size(), 2u);
  for (const UnitResult& u : r.units) {
    EXPECT_NE(std::find(u.command.begin(), u.command.end(), "-I/opt/mpi/include"), u.command.end()) << u.rel;
    EXPECT_NE(std::find(u.command.begin(), u.command.end(), "-pthread"), u.command.end()) << u.rel;
  }
  EXPECT_EQ(to_json(r)["mpi"]["wrapper"], "mpic++");

  // No wrapper answers: a note says what to install; units compile without the flags.
  runner.wrappers.clear();
  const VerifyResult none = run_verify(o, runner);
  ASSERT_TRUE(none.mpi);
  EXPECT_FALSE(none.mpi->usable());
  const std::string notes = text_summary(none);
  EXPECT_NE(notes.find("ring.cu includes <mpi.h>, but no MPI compiler wrapper answered"), std::string::npos) << notes;

  // A tree without <mpi.h> asks no wrapper.
  fs::remove(out / "ring.cu");
  EXPECT_FALSE(run_verify(o, runner).mpi);
  fs::remove_all(base);
}

TEST(VerifyOpenmp, SourcesAndFlags) {
  EXPECT_TRUE(uses_openmp("#include <omp.h>\n"));
  EXPECT_TRUE(uses_openmp("int f() {\n  # pragma omp parallel for\n  for (;;) {}\n}\n"));
  EXPECT_FALSE(uses_openmp("// #pragma omp parallel\n#pragma once\n#pragma ompx\nint omp_threads;\n"));
  EXPECT_TRUE(is_openmp_flag("-fopenmp"));
  EXPECT_TRUE(is_openmp_flag("-fopenmp=libomp"));
  EXPECT_TRUE(is_openmp_flag("-Xcompiler=-O3,-fopenmp"));
  EXPECT_TRUE(is_openmp_flag("-Wall,-fopenmp"));  // an -Xcompiler value
  EXPECT_FALSE(is_openmp_flag("-fopenmp-simd"));
  EXPECT_FALSE(is_openmp_flag("-O3"));
  // From a compilation database: nvcc's -Xcompiler -fopenmp becomes the neutral flag, once.
  const auto f = translate_flags({"nvcc", "-Xcompiler", "-fopenmp,-O2", "-fopenmp", "-DX", "-c", "a.cu"}, "/b", "/in",
                                 "/out", true);
  EXPECT_EQ(f, (std::vector<std::string>{"-fopenmp", "-DX"}));
  const auto* sm90 = ferry::analysis::find_profile("sm_90");
  const auto* gfx906 = ferry::analysis::find_profile("gfx906");
  ASSERT_TRUE(sm90 && gfx906);
  const auto nv = compile_command("nvcc", *sm90, "a.cu", false, {"-fopenmp"}, "a.o");
  const std::vector<std::string> host{"-Xcompiler", "-fopenmp"};
  EXPECT_NE(std::search(nv.begin(), nv.end(), host.begin(), host.end()), nv.end());
  const auto hip = compile_command("hipcc", *gfx906, "a.cu", false, {"-fopenmp"}, "a.o");
  EXPECT_NE(std::find(hip.begin(), hip.end(), "-fopenmp"), hip.end());
  EXPECT_EQ(std::find(hip.begin(), hip.end(), "-Xcompiler"), hip.end());
  EXPECT_EQ(known_missing_library("omp.h").find("OpenMP"), 4u);
}

TEST(VerifyRun, OpenmpUnitsAndDefines) {
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-omprun-" + std::to_string(::getpid()));
  fs::remove_all(base);
  const fs::path out = base / "out";
  write(out / "omp.cu", "#include <hip/hip_runtime.h>\n#include <omp.h>\n");
  write(out / "plain.cu", "int main() {}\n");
  MpiRunner runner;  // every compile succeeds
  VerifyOptions o;
  o.tree = out;
  o.profiles = ferry::analysis::parse_profile_list("gfx906");
  o.defines = {"GGML_USE_HIP", "N=4"};
  const VerifyResult r = run_verify(o, runner);
  ASSERT_EQ(r.units.size(), 2u);
  for (const UnitResult& u : r.units) {
    const bool omp = std::find(u.command.begin(), u.command.end(), "-fopenmp") != u.command.end();
    EXPECT_EQ(omp, u.rel == "omp.cu") << u.rel;
    EXPECT_NE(std::find(u.command.begin(), u.command.end(), "-DGGML_USE_HIP"), u.command.end()) << u.rel;
    EXPECT_NE(std::find(u.command.begin(), u.command.end(), "-DN=4"), u.command.end()) << u.rel;
  }
  const std::string text = text_summary(r);
  EXPECT_NE(text.find("1 unit(s) use OpenMP"), std::string::npos) << text;
  EXPECT_NE(text.find("-DGGML_USE_HIP -DN=4 (--define; the originals do not)"), std::string::npos) << text;
  EXPECT_EQ(to_json(r)["defines"].size(), 2u);
  fs::remove_all(base);
}

namespace {

// A unit that links on the device only as relocatable code: fails whole-program, passes with the
// relocatable flag of its toolchain.
class RdcRunner final : public ProcessRunner {
 public:
  mutable std::mutex mu;
  mutable std::vector<std::vector<std::string>> seen;
  ProcessResult run(const std::vector<std::string>& argv, const fs::path&, std::chrono::milliseconds) const override {
    {
      std::lock_guard lock(mu);
      seen.push_back(argv);
    }
    ProcessResult r;
    const bool rdc = std::find(argv.begin(), argv.end(), "-fgpu-rdc") != argv.end();
    const bool calls_out = argv[argv.size() - 3] == "main.cpp";
    r.exit_code = calls_out && !rdc ? 1 : 0;
    if (r.exit_code)
      r.output =
          "lld: error: undefined hidden symbol: particle::advance(float)\n"
          ">>> referenced by /tmp/main-4c4829/main-gfx906.o:(advanceParticles(float, particle*, int))\n"
          "clang: error: amdgcn-link command failed with exit code 1 (use -v to see invocation)\n";
    return r;
  }
};

}  // namespace

TEST(VerifyRun, DeviceCallsAcrossUnitsCompileAsRelocatableCode) {
  EXPECT_TRUE(needs_relocatable_device_code("ptxas fatal   : Unresolved extern function '_ZN1P3advEf'\n"));
  EXPECT_TRUE(needs_relocatable_device_code(
      "cdp.cu(2): error: kernel launch from __device__ or __global__ functions requires separate compilation mode\n"));
  EXPECT_FALSE(needs_relocatable_device_code("main.cpp:3:1: error: unknown type name 'foo'\n"));
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-rdc-" + std::to_string(::getpid()));
  fs::remove_all(base);
  write(base / "main.cpp", "__device__ void f();\n__global__ void k() { f(); }\n");
  write(base / "particle.cpp", "__device__ void f() {}\n");
  RdcRunner runner;
  VerifyOptions o;
  o.tree = base;
  o.profiles = ferry::analysis::parse_profile_list("gfx906");
  const VerifyResult r = run_verify(o, runner);
  ASSERT_EQ(r.units.size(), 2u);
  for (const UnitResult& u : r.units) {
    EXPECT_TRUE(u.passed) << u.rel;
    EXPECT_EQ(u.relocatable, u.rel == "main.cpp");
    EXPECT_EQ(std::find(u.command.begin(), u.command.end(), "-fgpu-rdc") != u.command.end(), u.rel == "main.cpp");
  }
  EXPECT_EQ(runner.seen.size(), 3u);  // main.cpp twice
  EXPECT_NE(text_summary(r).find("1 unit(s) call a device function defined in another unit"), std::string::npos);
  EXPECT_EQ(to_json(r)["units"][0]["relocatable"], true);
  fs::remove_all(base);
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

TEST(VerifyPlan, TranslateNvccCommand) {
  const auto args = split_command(
      "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DUSE_X=1 -I/in/include "
      "-isystem /usr/local/cuda/include -I../third \"-DNAME=\\\"a b\\\"\" -O3 -std=c++17 "
      "--generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler -fPIC -lineinfo "
      "--expt-relaxed-constexpr -x cu -c /in/src/a.cu -o CMakeFiles/a.o");
  const auto f = translate_flags(args, "/in/build", "/in", "/out", true);
  const std::vector<std::string> want = {"-DUSE_X=1", "-I/out/include", "-I/out/third", "-DNAME=\"a b\"", "-std=c++17"};
  EXPECT_EQ(f, want);
  const auto keep = translate_flags(args, "/in/build", "/in", "/in", false);
  EXPECT_NE(std::find(keep.begin(), keep.end(), "/usr/local/cuda/include"), keep.end());
  EXPECT_TRUE(is_translation_unit("a/b.cu"));
  EXPECT_FALSE(is_translation_unit("a/b.cuh"));
  EXPECT_FALSE(is_translation_unit("a/b.h"));
}

namespace {

// Canned compiler: answers by source file and compiler; counts calls.
class CannedRunner final : public ProcessRunner {
 public:
  std::map<std::string, std::pair<int, std::string>> answers;  // key: "<compiler>:<source>"
  mutable std::atomic<int> calls{0};
  mutable std::mutex mu;
  mutable std::vector<std::vector<std::string>> seen;

  ProcessResult run(const std::vector<std::string>& argv, const fs::path&, std::chrono::milliseconds) const override {
    ++calls;
    {
      std::lock_guard lock(mu);
      seen.push_back(argv);
    }
    const std::string& source = argv[argv.size() - 3];
    ProcessResult r;
    r.seconds = 0.01;
    const auto it = answers.find(argv[0] + ":" + source);
    if (it == answers.end()) {
      r.exit_code = 0;
      return r;
    }
    r.exit_code = it->second.first;
    r.output = it->second.second;
    return r;
  }
};

}  // namespace

// An asm statement spans lines (its template, then the constraints clang rejects, `"l"(ptr)`): the
// migration's FRY1003 covers all of them in linemaps.json, so verify counts an error on the
// constraint line as reported (how-to-optim-algorithm-in-cuda's YHs_Sample: unknown before).
TEST(VerifyRun, MultiLineAsmIsFlaggedOnEveryLine) {
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-asm-" + std::to_string(::getpid()));
  fs::remove_all(base);
  write(base / "in/k.cu",
        "__device__ unsigned smem_addr(const void* p) {\n"
        "  unsigned a;\n"
        "  asm(\"{.reg .u64 u;\\n\"\n"
        "      \" cvta.to.shared.u64 u, %1;\\n\"\n"
        "      \" cvt.u32.u64 %0, u;}\\n\"\n"
        "      : \"=r\"(a)\n"
        "      : \"l\"(p));\n"
        "  return a;\n"
        "}\n");
  ferry::migrate::TreeOptions tree;
  tree.input = base / "in";
  tree.output = base / "out";
  const ferry::targets::Options defaults;
  (void)ferry::migrate::migrate_tree(*ferry::targets::make_target("hip", defaults), defaults, tree);
  std::ifstream in(base / "out/.ferry/linemaps.json");
  const nlohmann::json maps = nlohmann::json::parse(in);
  std::set<std::uint32_t> lines;
  for (const auto& f : maps.at("files").at("k.cu").at("flagged_orig_lines"))
    if (f.at(1) == "FRY1003") lines.insert(f.at(0).get<std::uint32_t>());
  EXPECT_EQ(lines, (std::set<std::uint32_t>{3, 4, 5, 6, 7}));
  fs::remove_all(base);
}

TEST(VerifyRun, ClassifiesEveryUnitOfATree) {
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-unit-" + std::to_string(::getpid()));
  fs::remove_all(base);
  const fs::path in = base / "in", out = base / "out";
  write(in / "ok.cu", "int main() {}\n");
  write(in / "blas.cu", "#include <cublas_v2.h>\n");
  write(in / "typo.cu", "#include <cuda_runtime.h>\nint x = cudaFoo;\n");
  write(in / "bad.cu", "#include <cuda_runtime.h>\nint y = cudaBar;\n");
  write(in / "inc/h.cuh", "#pragma once\n");
  for (const char* f : {"ok.cu", "blas.cu", "typo.cu", "bad.cu", "inc/h.cuh"}) {
    fs::create_directories((out / f).parent_path());
    fs::copy_file(in / f, out / f);
  }
  write(out / ".ferry/manifest.json",
        nlohmann::json{{"version", 1}, {"target", "hip"}, {"input", in.string()}, {"files", nlohmann::json::object()}}
            .dump());
  write(out / ".ferry/linemaps.json",
        R"({"version":1,"files":{"blas.cu":{"out_to_orig":[1],"changed_out_lines":[1],"flagged_orig_lines":[]},
            "typo.cu":{"out_to_orig":[1,2],"changed_out_lines":[1,2],"flagged_orig_lines":[]},
            "bad.cu":{"out_to_orig":[1,2],"changed_out_lines":[1,2],"flagged_orig_lines":[]}}})");
  write(out / "CMakeFiles/3.25/CompilerIdCUDA/CMakeCUDACompilerId.cu", "probe\n");

  CannedRunner runner;
  runner.answers["hipcc:blas.cu"] = {1, "blas.cu:1:10: fatal error: 'hipblas/hipblas.h' file not found\n"};
  runner.answers["hipcc:typo.cu"] = {1, "typo.cu:2:9: error: use of undeclared identifier 'cudaFoo'\n"};
  runner.answers["hipcc:bad.cu"] = {1, "bad.cu:2:9: error: use of undeclared identifier 'hipBar'\n"};
  runner.answers["nvcc:typo.cu"] = {1, "typo.cu(2): error: identifier \"cudaFoo\" is undefined\n"};

  VerifyOptions o;
  o.tree = out;
  o.profiles = ferry::analysis::parse_profile_list("gfx906,gfx90a");
  o.jobs = 3;
  const VerifyResult r = run_verify(o, runner);
  EXPECT_EQ(r.translation_units, 4u);  // the CMake probe is not a unit of the project
  ASSERT_EQ(r.units.size(), 8u);
  std::map<std::string, FailureClass> cls;
  for (const UnitResult& u : r.units) cls[u.rel + "@" + u.arch] = u.passed ? FailureClass::None : u.cls;
  EXPECT_EQ(cls["ok.cu@gfx906"], FailureClass::None);
  EXPECT_EQ(cls["blas.cu@gfx90a"], FailureClass::MissingDependency);
  EXPECT_EQ(cls["typo.cu@gfx906"], FailureClass::PreExisting);
  EXPECT_EQ(cls["bad.cu@gfx90a"], FailureClass::MigrationDefect);
  // 8 compiles + one original check each for typo.cu and bad.cu (not blas.cu: a known library).
  EXPECT_EQ(runner.calls.load(), 10);
  EXPECT_EQ(r.originals.at("bad.cu").state, OriginalCheck::State::Compiles);
  EXPECT_EQ(exit_code(r), 1);
  for (const auto& argv : runner.seen) {
    if (argv[0] != "hipcc") continue;
    EXPECT_NE(std::find(argv.begin(), argv.end(), "-Iinc"), argv.end());
    const std::string obj = argv.back();
    EXPECT_EQ(obj.find(out.string()), std::string::npos) << "objects never go into the tree";
  }
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["summary"]["by_class"]["migration-defect"], 2);
  EXPECT_EQ(j["summary"]["exit_code"], 1);
  EXPECT_NE(text_summary(r).find("bad.cu:2: error: use of undeclared identifier 'hipBar'"), std::string::npos);
  fs::remove_all(base);
}

TEST(VerifyPlan, UsesTheInputsCompilationDatabase) {
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-plan-" + std::to_string(::getpid()));
  fs::remove_all(base);
  const fs::path in = base / "in", out = base / "out";
  for (const fs::path& root : {in, out}) {
    write(root / "src/a.cu", "int a;\n");
    write(root / "src/b.cpp", "int b;\n");
    write(root / "third/inc/t.h", "#pragma once\n");
  }
  const nlohmann::json db = nlohmann::json::array(
      {{{"directory", (in / "build").string()},
        {"file", (in / "src/a.cu").string()},
        {"command", "/usr/local/cuda/bin/nvcc -DA=1 -I" + (in / "third/inc").string() +
                        " -isystem /usr/local/cuda/include --expt-relaxed-constexpr -arch=sm_80 -O2 -c " +
                        (in / "src/a.cu").string() + " -o a.o"}}});
  write(in / "build/compile_commands.json", db.dump());
  PlanOptions po;
  po.root = out;
  po.input = in;
  const Plan plan = make_plan(po);
  ASSERT_TRUE(plan.compile_commands);
  EXPECT_EQ(*plan.compile_commands, in / "build/compile_commands.json");
  ASSERT_EQ(plan.units.size(), 2u);
  const TranslationUnit& a = plan.units[0];
  EXPECT_EQ(a.rel, "src/a.cu");
  EXPECT_EQ(a.flag_source, "compile_commands.json");
  EXPECT_EQ(a.flags, (std::vector<std::string>{"-DA=1", "-I" + (out / "third/inc").string()}));
  EXPECT_EQ(a.orig_flags[1], "-I" + (in / "third/inc").string());
  const TranslationUnit& b = plan.units[1];  // not in the database: inferred directories
  EXPECT_EQ(b.flag_source, "inferred");
  EXPECT_NE(std::find(b.flags.begin(), b.flags.end(), "-Ithird/inc"), b.flags.end());
  const auto cmd =
      compile_command("hipcc", *ferry::analysis::find_profile("gfx90a"), a.rel, false, a.flags, "/tmp/x.o");
  EXPECT_EQ(cmd[1], "-x");
  EXPECT_EQ(cmd[2], "hip");
  EXPECT_NE(std::find(cmd.begin(), cmd.end(), "--offload-arch=gfx90a"), cmd.end());
  EXPECT_EQ(std::find(cmd.begin(), cmd.end(), "-arch=sm_80"), cmd.end());
  EXPECT_EQ(std::find(cmd.begin(), cmd.end(), "-D__HIP_PLATFORM_AMD__"), cmd.end());  // hipcc's own, for HIP
  // nvcc's default dialect (C++17) where the flags name none; hipcc 5.2's own default is C++11.
  EXPECT_NE(std::find(cmd.begin(), cmd.end(), "-std=c++17"), cmd.end());
  const auto std20 =
      compile_command("hipcc", *ferry::analysis::find_profile("gfx906"), "a.cu", false, {"-std=c++20"}, "/tmp/x.o");
  EXPECT_EQ(std::count_if(std20.begin(), std20.end(), [](const std::string& f) { return f.rfind("-std=", 0) == 0; }),
            1);
  // A C file: host code only, and the platform macro hipcc leaves out for C.
  const auto c_cmd =
      compile_command("hipcc", *ferry::analysis::find_profile("gfx90a"), "dynlink.c", true, {}, "/tmp/y.o");
  EXPECT_EQ(c_cmd[2], "c");
  EXPECT_EQ(std::find(c_cmd.begin(), c_cmd.end(), "-std=c++17"), c_cmd.end());
  EXPECT_NE(std::find(c_cmd.begin(), c_cmd.end(), "-D__HIP_PLATFORM_AMD__"), c_cmd.end());
  EXPECT_EQ(std::find(c_cmd.begin(), c_cmd.end(), "--offload-arch=gfx90a"), c_cmd.end());
  fs::remove_all(base);
}
