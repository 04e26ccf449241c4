// verify: the whole run over small trees with canned compiler output (the units, their include
// paths and flags: PyTorch extensions, MPI, OpenMP, relocatable device code, compilation
// databases); the real toolchain runs in tests/e2e/test_verify*.sh.
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

std::string write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

}  // namespace

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

// Answers a probe, `PROGRAM FLAG [ARG]` (`python -c CODE`, `mpic++ --showme:compile`), with a
// canned output per program (a program it does not know fails to launch), every compile with
// success; it remembers every command it was asked to run.
class ProbeRunner final : public ProcessRunner {
 public:
  ProbeRunner(std::string flag, std::size_t argc) : flag_(std::move(flag)), argc_(argc) {}
  std::map<std::string, std::string> answers;  // program -> its output
  mutable std::mutex mu;
  mutable std::vector<std::vector<std::string>> seen;
  ProcessResult run(const std::vector<std::string>& argv, const fs::path&, std::chrono::milliseconds) const override {
    {
      std::lock_guard lock(mu);
      seen.push_back(argv);
    }
    ProcessResult r;
    r.exit_code = 0;
    if (argv.size() == argc_ && argv[1] == flag_) {
      const auto it = answers.find(argv[0]);
      if (it == answers.end()) r.launch_failed = true, r.exit_code = -1;
      else r.output = it->second;
    }
    return r;
  }

 private:
  std::string flag_;
  std::size_t argc_;
};

}  // namespace

TEST(VerifyRun, PyTorchExtensionUnitsGetTorchsIncludePaths) {
  const fs::path base = fs::temp_directory_path() / ("ferry-verify-torchrun-" + std::to_string(::getpid()));
  fs::remove_all(base);
  const fs::path out = base / "out";
  write(out / "ext.cu", "#include <hip/hip_runtime.h>\n#include <torch/extension.h>\n");
  write(out / "plain.cu", "int main() {}\n");
  write(base / "torch/include/torch/extension.h", "#pragma once\n");
  ProbeRunner runner("-c", 3);  // python -c CODE
  runner.answers["py-without"] = "ferry-torch: none ModuleNotFoundError No module named 'torch'\n";
  runner.answers["py-with"] = "ferry-torch: version 2.4.0\nferry-torch: abi 0\nferry-torch: include " +
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
  ProbeRunner runner("--showme:compile", 2);                   // mpic++ --showme:compile
  runner.answers["mpic++"] = "-I/opt/mpi/include -pthread\n";  // mpicxx is absent: the next answers
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
  runner.answers.clear();
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
  ProbeRunner runner("--showme:compile", 2);  // every compile succeeds
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
