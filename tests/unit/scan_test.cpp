#include "scan/scan.h"
#include "rules/libraries.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace fs = std::filesystem;

namespace ferry::scan {
namespace {

class ScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ferry_scan_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(root_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  void write(const std::string& rel, const std::string& text) {
    const fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  Inventory scan(ScanOptions o = {}) {
    o.jobs = 2;
    return scan_project(root_, o);
  }
  static const ApiUse* find_use(const Inventory& inv, std::string_view name) {
    for (const ApiUse& u : inv.uses)
      if (u.name == name) return &u;
    return nullptr;
  }
  static bool has_library(const Inventory& inv, std::string_view id) {
    return std::any_of(inv.libraries.begin(), inv.libraries.end(), [&](const LibraryUse& l) { return l.id == id; });
  }
  static bool has_problem(const Inventory& inv, std::string_view code, std::string_view file = {}) {
    return std::any_of(inv.problems.begin(), inv.problems.end(), [&](const Diagnostic& d) {
      return to_string(d.code) == code && (file.empty() || d.file == file);
    });
  }
  fs::path root_;
};

TEST_F(ScanTest, DetectsEachLibraryFromIncludes) {
  write("libs.cu",
        "#include <cuda.h>\n#include <cuda_runtime.h>\n#include "
        "<cublas_v2.h>\n#include <cublasLt.h>\n"
        "#include <cudnn.h>\n#include <cufft.h>\n#include "
        "<curand.h>\n#include <cusparse.h>\n"
        "#include <cusolverDn.h>\n#include <nccl.h>\n#include "
        "<cub/cub.cuh>\n#include <thrust/sort.h>\n"
        "#include <nvrtc.h>\n#include "
        "<cooperative_groups.h>\n#include <torch/extension.h>\n"
        "#include <ATen/ATen.h>\n");
  const Inventory inv = scan();
  for (const char* id : {"cuda-driver", "cuda-runtime", "cublas", "cublaslt", "cudnn", "cufft", "curand", "cusparse",
                         "cusolver", "nccl", "cub", "thrust", "nvrtc", "cooperative-groups", "pytorch-cpp"})
    EXPECT_TRUE(has_library(inv, id)) << id;
  const ApiUse* nccl = find_use(inv, "nccl.h");
  ASSERT_NE(nccl, nullptr);
  EXPECT_EQ(nccl->line, 10u);
  EXPECT_EQ(nccl->col, 10u);
  EXPECT_EQ(nccl->kind, "header");
}

TEST_F(ScanTest, ApiUsesHaveExactLocationsAndStatus) {
  write("src/k.cu",
        "#include <cuda_runtime.h>\n"                                                 // 1
        "__global__ void __launch_bounds__(256) add(float* x) {\n"                    // 2
        "  unsigned m = __ballot_sync(0xffffffffu, x[0] > 0);\n"                      // 3
        "  asm volatile(\"ex2.approx.f32 %0, %1;\" : \"=f\"(x[0]) : \"f\"(x[0]));\n"  // 4: no HIP form
        "}\n"                                                                         // 5
        "void run(float* d) {\n"                                                      // 6
        "  cudaMalloc(&d, 4); add<<<1, 32>>>(d);\n"                                   // 7
        "  thrust::sort(d, d + 1);\n"                                                 // 8
        "  ncclAllReduce(d, d, 1, ncclFloat, ncclSum, 0, 0);\n"                       // 9
        "}\n");
  const Inventory inv = scan();
  ASSERT_EQ(inv.targets.front(), "hip");
  const ApiUse* k = find_use(inv, "add");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->kind, "kernel");
  EXPECT_EQ(k->line, 2u);
  EXPECT_EQ(k->col, 40u);
  const ApiUse* b = find_use(inv, "__ballot_sync");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->kind, "warp-intrinsic");
  EXPECT_EQ(b->line, 3u);
  EXPECT_EQ(b->col, 16u);
  EXPECT_EQ(b->status.at("hip"), "changed");
  const ApiUse* a = find_use(inv, "asm");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind, "inline-asm");
  EXPECT_EQ(a->status.at("hip"), "unsupported");
  EXPECT_EQ(a->note, "PTX");
  const ApiUse* m = find_use(inv, "cudaMalloc");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->line, 7u);
  EXPECT_EQ(m->col, 3u);
  EXPECT_EQ(m->family, "runtime");
  EXPECT_EQ(m->status.at("hip"), "supported");
  bool launch = false;
  for (const ApiUse& u : inv.uses)
    if (u.kind == "launch" && u.name == "add" && u.line == 7 && u.col == 25) launch = true;
  EXPECT_TRUE(launch);
  const ApiUse* t = find_use(inv, "thrust::sort");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->library, "thrust");
  const ApiUse* n = find_use(inv, "ncclAllReduce");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->library, "nccl");
  ASSERT_EQ(inv.files.size(), 1u);
  const FileInventory& f = inv.files.front();
  EXPECT_EQ(f.kernels, 1u);
  EXPECT_EQ(f.launches, 1u);
  EXPECT_EQ(f.warp_intrinsics, 1u);
  EXPECT_EQ(f.inline_asm, 1u);
  // Inline asm with no HIP equivalent alone costs 4 h and makes the file at least medium (PTX
  // idioms Ferry rewrites, such as %laneid, cost nothing).
  EXPECT_GE(f.effort.at("hip").hours, 4.0);
  EXPECT_NE(f.effort.at("hip").level, "low");
}

TEST_F(ScanTest, StringsCommentsMembersAndUserMacrosDoNotCount) {
  write("a.cu",
        "// cudaMalloc in a comment\n/* __shfl_sync(0, 0, 0) */\n"
        "const char* s = \"cudaFree(p) <<<1,1>>> asm(\\\"x\\\")\";\n"
        "auto r = R\"(cudaMemcpy)\";\n"
        "#define cudaCheckMine(x) (x)\n"
        "int y = v.cudaMalloc; int q = p->cudaFree; int z = other::cudaFree;\n"
        "int w = cudaCheckMine(1);\n");
  const Inventory inv = scan();
  EXPECT_TRUE(inv.uses.empty()) << inv.uses.front().name << " at " << inv.uses.front().line;
}

TEST_F(ScanTest, DetectsBuildSystemsAndPythonUse) {
  write("CMakeLists.txt",
        "# project(x LANGUAGES CUDA) in a "
        "comment\ncmake_minimum_required(VERSION 3.18)\n"
        "project(demo LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n"
        "target_link_libraries(demo PRIVATE CUDA::cublas)\n");
  write("sub/Makefile",
        "# nvcc in a comment\nNVCC ?= "
        "/usr/local/cuda/bin/nvcc\nLDLIBS := -lcudnn\n");
  write("setup.py",
        "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n"
        "setup(ext_modules=[CUDAExtension('x', ['x.cu'])])\n");
  write("train.py",
        "import torch\n# x.cuda() in a comment\ns = 'torch.cuda is in a "
        "string'\nm = model.cuda()\n"
        "d = torch.device(\"cuda\")\nok = torch.cuda.is_available()\n");
  write("BUILD.bazel", "cuda_library(name = 'k', srcs = ['k.cu'])\n");
  const Inventory inv = scan();
  auto has_build = [&](std::string_view id, std::string_view detail, std::string_view file, std::uint32_t line) {
    return std::any_of(inv.build_systems.begin(), inv.build_systems.end(), [&](const BuildSystem& b) {
      return b.id == id && b.detail.find(detail) != std::string::npos && b.file == file && b.line == line;
    });
  };
  EXPECT_TRUE(has_build("cmake", "LANGUAGES CUDA", "CMakeLists.txt", 3));
  EXPECT_TRUE(has_build("cmake", "CUDAToolkit", "CMakeLists.txt", 4));
  EXPECT_TRUE(has_build("make", "nvcc", "sub/Makefile", 2));
  EXPECT_TRUE(has_build("setuptools", "CUDAExtension", "setup.py", 1));
  EXPECT_TRUE(has_build("bazel", "cuda_library", "BUILD.bazel", 1));
  EXPECT_EQ(inv.build_systems.size(), 5u);
  EXPECT_TRUE(has_library(inv, "cublas"));
  EXPECT_TRUE(has_library(inv, "cudnn"));
  EXPECT_TRUE(has_library(inv, "pytorch"));
  EXPECT_TRUE(has_library(inv, "pytorch-cpp"));
  std::size_t train = 0;
  for (const ApiUse& u : inv.uses) train += u.file == "train.py";
  EXPECT_EQ(train,
            4u);  // import torch, .cuda(), "cuda", torch.cuda.is_available
  const ApiUse* c = find_use(inv, ".cuda()");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->line, 4u);
  EXPECT_EQ(c->col, 11u);
  EXPECT_EQ(inv.kind_counts.at("bazel"), 1u);
  EXPECT_EQ(inv.kind_counts.at("python"), 2u);
}

TEST_F(ScanTest, PythonLinesStayRightAfterStringsSpanningLines) {
  // A backslash-newline inside a triple-quoted string is still a line break,
  // and a nested string in an f-string field does not end the f-string.
  write("a.py",
        "s = \"\"\"doc \\\nimport torch.cuda\n\"\"\"\n"
        "t = f\"{d[\"cuda\"]}\"\n"
        "ok = torch.cuda.is_available()\n");
  const Inventory inv = scan();
  ASSERT_EQ(inv.uses.size(), 1u);
  EXPECT_EQ(inv.uses[0].name, "torch.cuda.is_available");
  EXPECT_EQ(inv.uses[0].line, 5u);
  EXPECT_EQ(inv.uses[0].col, 12u);  // the `cuda` of torch.cuda
}

TEST_F(ScanTest, NonexistentPathIsReportedNotThrown) {
  Inventory inv;
  EXPECT_NO_THROW(inv = scan_project(root_ / "missing", {}));
  EXPECT_TRUE(inv.fatal);
  EXPECT_TRUE(has_problem(inv, "FRY9006"));
}

TEST_F(ScanTest, SingleFileIsScanned) {
  write("one.cu",
        "__global__ void k() {}\nvoid f() { k<<<1, 1>>>(); "
        "cudaDeviceSynchronize(); }\n");
  const Inventory inv = scan_project(root_ / "one.cu", {});
  EXPECT_TRUE(inv.single_file);
  EXPECT_FALSE(inv.fatal);
  ASSERT_EQ(inv.files.size(), 1u);
  EXPECT_EQ(inv.files.front().rel, "one.cu");
  EXPECT_EQ(inv.files.front().kernels, 1u);
  EXPECT_NE(find_use(inv, "cudaDeviceSynchronize"), nullptr);
}

TEST_F(ScanTest, BinaryInvalidUtf8HugeAreReportedAndValidUtf8StillScanned) {
  write("bin.cu", std::string("\x7f"
                              "ELF\0\0\0cudaMalloc",
                              16));
  write("gbk.cu", "// \xd6\xd0\xce\xc4 comment\nvoid f() { cudaFree(0); }\n");
  write("big.cu", std::string(4096, ' ') + "cudaMalloc(0, 0);\n");
  ScanOptions o;
  o.max_file_size = 2048;
  const Inventory inv = scan(o);
  EXPECT_FALSE(inv.fatal);
  EXPECT_TRUE(has_problem(inv, "FRY9001", "bin.cu"));
  EXPECT_TRUE(has_problem(inv, "FRY9002", "gbk.cu"));
  EXPECT_TRUE(has_problem(inv, "FRY9004", "big.cu"));
  const ApiUse* u = find_use(inv, "cudaFree");
  ASSERT_NE(u, nullptr);  // invalid UTF-8 is still scanned
  EXPECT_EQ(u->line, 2u);
  EXPECT_EQ(find_use(inv, "cudaMalloc"), nullptr);
}

TEST_F(ScanTest, FifoDanglingLinkAndLoopAreReported) {
  write("ok.cu", "void f() { cudaFree(0); }\n");
  ASSERT_EQ(::mkfifo((root_ / "pipe.cu").c_str(), 0600), 0);
  fs::create_symlink(root_ / "nowhere.cu", root_ / "dangling.cu");
  fs::create_directories(root_ / "sub");
  fs::create_directory_symlink(root_, root_ / "sub" / "loop");
  Inventory inv;
  EXPECT_NO_THROW(inv = scan());
  EXPECT_FALSE(inv.fatal);
  EXPECT_TRUE(has_problem(inv, "FRY9003", "pipe.cu"));
  EXPECT_TRUE(has_problem(inv, "FRY9003", "dangling.cu"));
  EXPECT_TRUE(has_problem(inv, "FRY9005", "sub/loop"));
  EXPECT_NE(find_use(inv, "cudaFree"), nullptr);
  // A FIFO or a dangling link given directly is a fatal input error, never a
  // hang or a throw.
  Inventory fifo, link;
  EXPECT_NO_THROW(fifo = scan_project(root_ / "pipe.cu", {}));
  EXPECT_TRUE(fifo.fatal);
  EXPECT_TRUE(has_problem(fifo, "FRY9003"));
  EXPECT_NO_THROW(link = scan_project(root_ / "dangling.cu", {}));
  EXPECT_TRUE(link.fatal);
  EXPECT_TRUE(has_problem(link, "FRY9003"));
}

TEST_F(ScanTest, NestedOutputAndBuildFoldersAreSkipped) {
  write("src/a.cu", "void f() { cudaFree(0); }\n");
  write("out/.ferry/manifest.json", "{}");
  write("out/src/a.cu", "void f() { hipFree(0); cudaMalloc(0, 0); }\n");
  write("build/CMakeCache.txt", "CMAKE_CUDA_COMPILER:FILEPATH=/usr/local/cuda/bin/nvcc\n");
  write("build/CMakeFiles/x.cu", "void g() { cudaMalloc(0, 0); }\n");
  const Inventory inv = scan();
  EXPECT_TRUE(has_problem(inv, "FRY9007", "out"));
  EXPECT_TRUE(has_problem(inv, "FRY9007", "build"));
  EXPECT_EQ(find_use(inv, "cudaMalloc"), nullptr);
  EXPECT_NE(find_use(inv, "cudaFree"), nullptr);
}

TEST_F(ScanTest, UnknownTargetOrDialectMismatchIsAnOptionError) {
  ScanOptions o;
  o.targets = {"nosuch"};
  EXPECT_THROW((void)scan_project(root_, o), std::invalid_argument);
}

TEST(ScanEffort, ModelWeights) {
  ApiUse unsup{"f", 1, 1, "cudaX", "runtime", "function", "cuda-runtime", {{"hip", "unsupported"}}, ""};
  ApiUse again = unsup;
  ApiUse changed{"f", 2, 1, "cudaY", "runtime", "function", "cuda-runtime", {{"hip", "changed"}}, ""};
  ApiUse ok{"f", 3, 1, "cudaZ", "runtime", "function", "cuda-runtime", {{"hip", "supported"}}, ""};
  const Effort e = file_effort({&unsup, &again, &changed, &ok}, "hip", true);
  EXPECT_DOUBLE_EQ(e.hours, 2.0 + 0.25 + 0.5 + 0.1);
  EXPECT_EQ(e.level, "medium");
  EXPECT_EQ(file_effort({&ok}, "hip", true).level, "low");
  EXPECT_EQ(file_effort({}, "hip", true).level, "none");
  EXPECT_EQ(overall_level(10), "low");
  EXPECT_EQ(overall_level(40), "medium");
  EXPECT_EQ(overall_level(100), "high");
}

TEST_F(ScanTest, SummaryCountsByDefaultAndListsEverythingWithFiles) {
  for (int i = 0; i < 12; ++i)
    write("k" + std::to_string(i) + "/k.cu",
          std::string(static_cast<std::size_t>(i + 1), '\n') + "void f() { cudaMalloc(0, 0); }\n");
  for (int i = 0; i < 3; ++i) write("p" + std::to_string(i) + "/CMakeLists.txt", "project(p LANGUAGES CXX CUDA)\n");
  const Inventory inv = scan();
  const std::string brief = inventory_summary(inv, false);
  EXPECT_NE(brief.find("Build systems: 3 files with GPU settings"), std::string::npos) << brief;
  EXPECT_NE(brief.find(" 3 files  (project(... LANGUAGES CUDA) 3)"), std::string::npos) << brief;
  EXPECT_NE(brief.find("Heaviest files (effort for hip; 10 of 12 with GPU uses, --files lists all)"), std::string::npos)
      << brief;
  EXPECT_EQ(brief.find("p1/CMakeLists.txt"), std::string::npos);
  const std::string all = inventory_summary(inv, false, true);
  for (int i = 0; i < 12; ++i) EXPECT_NE(all.find("k" + std::to_string(i) + "/k.cu"), std::string::npos) << i;
  EXPECT_NE(all.find("p1/CMakeLists.txt:1:1"), std::string::npos) << all;
}

TEST_F(ScanTest, CMakeTheMigrationCannotTokenizeIsAProblemNotAThrow) {
  write("CMakeLists.txt", "project(p LANGUAGES CUDA\n");
  write("ok/CMakeLists.txt",
        "#[[ project(q LANGUAGES CUDA) ]]\nfind_package(CUDAToolkit)\n"
        "target_link_libraries(q \"CUDA::cublas_static\" [[CUDA::cufft]])\n");
  const Inventory inv = scan();
  EXPECT_TRUE(has_problem(inv, "FRY5004", "CMakeLists.txt"));
  ASSERT_EQ(inv.build_systems.size(), 1u);
  EXPECT_EQ(inv.build_systems[0].detail, "find_package(CUDAToolkit)");
  EXPECT_EQ(inv.build_systems[0].line, 2u);
  const ApiUse* l = find_use(inv, "CUDA::cublas_static");
  ASSERT_NE(l, nullptr);  // a quoted argument counts, a bracket argument does not
  EXPECT_EQ(l->library, "cublas");
  EXPECT_EQ(l->line, 3u);
  EXPECT_EQ(l->col, 25u);
  EXPECT_EQ(find_use(inv, "CUDA::cufft"), nullptr);
}

TEST(LibraryTable, OneTableForScanAndBuildFiles) {
  EXPECT_EQ(rules::library_of_header("cublasLt.h")->id, "cublaslt");  // the longest prefix wins
  EXPECT_EQ(rules::library_of_header("cublas_v2.h")->id, "cublas");
  EXPECT_EQ(rules::library_of_header("cuda.h")->id, "cuda-driver");  // exact paths first
  EXPECT_EQ(rules::library_of_header("cuda_fp16.h")->id, "cuda-runtime");
  EXPECT_EQ(rules::library_of_header("stdio.h"), nullptr);
  EXPECT_EQ(rules::library_of_family("curand_device").id, "curand");
  EXPECT_EQ(rules::library_of_family("math").id, "cuda-runtime");
  EXPECT_EQ(rules::library_of_link("cublas")->hip_link, "hipblas");
  EXPECT_EQ(rules::library_of_link("cudart_static")->hip_cmake_target, "hip::host");
  EXPECT_EQ(rules::library_of_link("nvrtc")->hip_link, "");  // known to scan, left alone by buildsys
  EXPECT_EQ(rules::library_of_namespace("nvcuda")->id, "wmma");
  for (const rules::CudaLibrary& l : rules::cuda_libraries()) EXPECT_EQ(library_name(l.id), l.name);
}

TEST(ScanEffort, MigratedModelWeighsWhatTheMigrationLeaves) {
  auto diag = [](Diag code, std::string msg) {
    return Diagnostic{code, Severity::Warning, "f", 1, 1, std::move(msg), ""};
  };
  const std::vector<Diagnostic> left = {diag(Diag::ApiUnsupported, "cudaX"), diag(Diag::ApiUnsupported, "cudaX"),
                                        diag(Diag::ApiDeprecated, "cudaY"), diag(Diag::WarpIndex32, ">> 5")};
  ApiUse unknown{"f", 2, 1, "cuSomething", "driver", "function", "cuda-driver", {{"hip", "unknown"}}, ""};
  ApiUse ok{"f", 3, 1, "cudaZ", "runtime", "function", "cuda-runtime", {{"hip", "supported"}}, ""};
  const Effort e = migrated_effort({&unknown, &ok}, left, "hip");
  EXPECT_DOUBLE_EQ(e.hours, 2.0 + 0.25 + 0.1 + 0.5 + 0.5 + 0.1);
  EXPECT_EQ(e.level, "medium");  // an unsupported API
  EXPECT_EQ(migrated_effort({&ok}, {}, "hip").level, "low");
  EXPECT_EQ(migrated_effort({}, {}, "hip").level, "none");
}

TEST_F(ScanTest, SourcesAreMigratedInMemoryForTheEstimate) {
  write("a.cu",
        "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
        "int main() {\n  float* p;\n  cudaMalloc(&p, 4);\n  k<<<1, 32>>>(p);\n"
        "  cudaThreadSynchronize();\n  cudaFree(p);\n}\n");
  write("setup.py", "import torch\n");
  const Inventory inv = scan();
  const auto a =
      std::find_if(inv.files.begin(), inv.files.end(), [](const FileInventory& f) { return f.rel == "a.cu"; });
  ASSERT_NE(a, inv.files.end());
  EXPECT_TRUE(a->migrated);
  EXPECT_EQ(a->left.at("hip").at("FRY1002"), 1u);  // cudaThreadSynchronize is deprecated
  EXPECT_GT(a->automatic.at("hip"), 0u);
  EXPECT_LT(a->automatic.at("hip"), a->judged.at("hip"));  // the deprecated call's line is left
  EXPECT_EQ(inv.automatic.at("hip"), a->automatic.at("hip"));
  const auto py =
      std::find_if(inv.files.begin(), inv.files.end(), [](const FileInventory& f) { return f.rel == "setup.py"; });
  ASSERT_NE(py, inv.files.end());
  EXPECT_FALSE(py->migrated);
  const nlohmann::json j = inventory_to_json(inv);
  EXPECT_EQ(j["migration"]["hip"]["automatic"], inv.automatic.at("hip"));
  EXPECT_GT(j["migration"]["hip"]["share"].get<double>(), 0.0);
}

TEST_F(ScanTest, BuildFilesCostWhatTheirConversionLeaves) {
  write("CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n"
        "add_executable(p p.cu)\n");
  ScanOptions o;
  o.targets = {"hip", "cann"};
  const Inventory inv = scan(o);
  ASSERT_EQ(inv.build_systems.size(), 1u);
  EXPECT_DOUBLE_EQ(inv.effort.at("hip").hours, 0.5);   // hip converts it and leaves nothing
  EXPECT_DOUBLE_EQ(inv.effort.at("cann").hours, 2.0);  // cann does not convert build files
  EXPECT_DOUBLE_EQ(build_effort({}), 0.5);
  const Diagnostic review{Diag::BuildLeftForReview, Severity::Warning, "CMakeLists.txt", 3, 1, "x", ""};
  EXPECT_DOUBLE_EQ(build_effort({review, review}), 0.5 + 1.0 + 0.25);
}

}  // namespace
}  // namespace ferry::scan
