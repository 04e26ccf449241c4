// The wave64 driver's source transformation: launches, extern __shared__, inline assembly, and
// that every line stays where it was (compiler messages point at the original lines).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "wave64/build.h"
#include "wave64/transform.h"

namespace ferry::wave64 {
namespace {

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(Wave64Transform, RewritesLaunchesAndKeepsLines) {
  const std::string src =
      "__global__ void k(int* p, int n) {}\n"
      "template <int B> __global__ void t(int* p) {}\n"
      "void f(int* p, hipStream_t s) {\n"
      "  k<<<dim3(2), 64>>>(p, 3);\n"
      "  t<128><<<1, 128, 0,\n"
      "           s>>>(p);\n"
      "}\n";
  const Transformed t = transform_source(src, "a/k.hip");
  EXPECT_EQ(t.launches, 2);
  EXPECT_TRUE(t.diagnostics.empty());
  EXPECT_TRUE(t.text.starts_with("#line 1 \"a/k.hip\"\n"));
  EXPECT_NE(t.text.find("hipLaunchKernelGGL(k, dim3(2), 64, 0, 0, p, 3);"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("hipLaunchKernelGGL(HIP_KERNEL_NAME(t<128>), 1, 128, 0,\n           s, p);"), std::string::npos)
      << t.text;
  EXPECT_EQ(lines(t.text), lines(src) + 1);
}

TEST(Wave64Transform, ExternSharedInFunctionBecomesAPointer) {
  const std::string src =
      "template <typename T>\n"
      "__global__ void k(T* out) {\n"
      "  extern __shared__ __align__(sizeof(T)) unsigned char raw[];\n"
      "  extern __shared__ volatile\n"
      "      float vols[];\n"
      "  out[0] = raw[0] + vols[0];\n"
      "}\n";
  const Transformed t = transform_source(src, "k.cu");
  EXPECT_EQ(t.dynamic_shared, 2);
  EXPECT_NE(t.text.find("unsigned char* const raw = reinterpret_cast<unsigned char*>(::w64::dynamic_shared());"),
            std::string::npos)
      << t.text;
  EXPECT_NE(t.text.find("volatile float* const vols = reinterpret_cast<volatile float*>(::w64::dynamic_shared());\n"),
            std::string::npos)
      << t.text;
  EXPECT_EQ(lines(t.text), lines(src) + 1);
}

// `class` in a template's parameter list is no class scope, nor is `extern "C"` before a kernel
// a linkage block: the kernel's extern __shared__ is a local pointer (it was given a file-scope
// slot; cuda-samples' reductionMultiBlockCG crashed on it).
TEST(Wave64Transform, ExternSharedInClassTemplateParameterKernel) {
  const std::string src =
      "template <class T, template <class> class A = X, int N = (3 > 2)>\n"
      "__global__ void k(T* out) {\n"
      "  extern __shared__ T buf[];\n"
      "  out[0] = buf[0];\n"
      "}\n"
      "template <class T> struct S {\n"
      "  __device__ void m() { extern __shared__ double d[]; d[0] = 1; }\n"
      "};\n"
      "extern \"C\" __global__ void c(float* o) { extern double __shared__ e[]; o[0] = e[0]; }\n";
  const Transformed t = transform_source(src, "k.cu");
  EXPECT_TRUE(t.diagnostics.empty());
  EXPECT_EQ(t.dynamic_shared, 3);
  EXPECT_NE(t.text.find("double* const e = reinterpret_cast<double*>(::w64::dynamic_shared());"), std::string::npos)
      << t.text;
  EXPECT_NE(t.text.find("T* const buf = reinterpret_cast<T*>(::w64::dynamic_shared());"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("double* const d = reinterpret_cast<double*>(::w64::dynamic_shared());"), std::string::npos)
      << t.text;
  EXPECT_EQ(t.text.find("DynSharedSlot"), std::string::npos) << t.text;
}

// Rows of a fixed width (cuda-samples' tensor-core GEMMs): a pointer to arrays.
TEST(Wave64Transform, ExternSharedRowsBecomeAPointerToArrays) {
  const std::string src =
      "__global__ void k(float* o) {\n"
      "  extern __shared__ half shmem[][CHUNK_K * K +\n"
      "                               SKEW];\n"
      "  o[0] = shmem[1][2];\n"
      "}\n"
      "extern __shared__ int grid[][4][8];\n";
  const Transformed t = transform_source(src, "k.cu");
  EXPECT_TRUE(t.diagnostics.empty());
  EXPECT_EQ(t.dynamic_shared, 2);
  EXPECT_NE(t.text.find("half (* const shmem)[CHUNK_K * K +                                SKEW] = "
                        "reinterpret_cast<half (*)[CHUNK_K * K +                                SKEW]>("
                        "::w64::dynamic_shared());\n\n"),
            std::string::npos)
      << t.text;
  EXPECT_NE(t.text.find("static thread_local int (*grid)[4][8] = nullptr;"), std::string::npos) << t.text;
  EXPECT_EQ(lines(t.text), lines(src) + 1);
}

TEST(Wave64Transform, ExternSharedAtFileScopeIsSetPerBlock) {
  const std::string src = "namespace n {\nextern __shared__ float sdata[];\n}\n__global__ void k() { sdata[0] = 1; }\n";
  const Transformed t = transform_source(src, "k.cu");
  EXPECT_EQ(t.dynamic_shared, 1);
  EXPECT_NE(t.text.find("static thread_local float* sdata = nullptr; static const ::w64::rt::DynSharedSlot"),
            std::string::npos)
      << t.text;
}

TEST(Wave64Transform, OnlyDeviceAssemblyIsAnError) {
  const std::string src =
      "__device__ int bits(int x) { int l; asm(\"bfe.u32 %0, %1, 4, 8;\" : \"=r\"(l) : \"r\"(x)); return l; }\n"
      "__global__ void k() { asm volatile(\"\" ::: \"memory\"); }\n"
      "unsigned long long tsc() { unsigned lo, hi; asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); return lo; }\n";
  const Transformed t = transform_source(src, "k.cu");
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_EQ(t.diagnostics[0].code, Diag::Wave64InlineAsm);
  EXPECT_EQ(t.diagnostics[0].line, 1u);
  EXPECT_EQ(t.diagnostics[0].severity, Severity::Error);
}

// What CUDA code writes that the runtime's macros need help with (docs/wave64.md, "CUDA code as
// written"): reads of PTX special registers, a static beside __shared__, inline beside
// __forceinline__, clock() in device code, a template kernel with a comma in hipLaunchKernelGGL.
TEST(Wave64Transform, RewritesWhatTheMacrosCannotTake) {
  const std::string src =
      "__device__ unsigned lane() { unsigned l; asm volatile(\"mov.u32 %0, %%lanemask_lt;\" : \"=r\"(l)); return l; }\n"
      "template <class T> __device__ T f(T v) { static __shared__ T s[32]; __shared__ static T t; return v; }\n"
      "__forceinline__ __device__ inline int g(int x) { return x; }\n"
      "__global__ void k(long* o) { o[0] = clock(); }\n"
      "long host() { return clock(); }\n"
      "void launch(int* p) { hipLaunchKernelGGL(kk<1, 2>, dim3(1), dim3(1), 0, 0, p); }\n";
  const Transformed t = transform_source(src, "k.cu");
  EXPECT_TRUE(t.diagnostics.empty());
  EXPECT_NE(t.text.find("(l) = ::w64::ptx_sreg_lanemask_lt();"), std::string::npos) << t.text;
  EXPECT_EQ(t.text.find("static __shared__"), std::string::npos) << t.text;
  EXPECT_EQ(t.text.find("__shared__ static"), std::string::npos) << t.text;
  EXPECT_EQ(t.text.find("__device__ inline"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("o[0] = ::w64::device_clock();"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("long host() { return clock(); }"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("hipLaunchKernelGGL((kk<1, 2>), dim3(1)"), std::string::npos) << t.text;
}

// A cooperative launch names its kernel through void*, which lost the parameter types the runtime
// converts the argument array to: the cast of a kernel's name is dropped.
TEST(Wave64Transform, CooperativeLaunchGetsTheKernelNotAVoidPointer) {
  const std::string src =
      "void f(void** a) {\n"
      "  cudaLaunchCooperativeKernel((void *)reduce, g, b, a, 0, NULL);\n"
      "  cudaLaunchCooperativeKernel((const void*)ns::k<float, 4>, g, b, a);\n"
      "  hipLaunchCooperativeKernel(reinterpret_cast<void*>(kk<T>), g, b, a, 0, 0);\n"
      "  cudaLaunchKernel((void*)table[i], g, b, a);\n"
      "}\n";
  const Transformed t = transform_source(src, "k.cu");
  EXPECT_TRUE(t.diagnostics.empty());
  EXPECT_NE(t.text.find("cudaLaunchCooperativeKernel(reduce, g, b, a, 0, NULL);"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("cudaLaunchCooperativeKernel(ns::k<float, 4>, g, b, a);"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("hipLaunchCooperativeKernel((kk<T>), g, b, a, 0, 0);"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("cudaLaunchKernel((void*)table[i], g, b, a);"), std::string::npos) << t.text;
}

TEST(Wave64Transform, UnknownExternSharedFormIsReported) {
  const Transformed t = transform_source("__global__ void k() { extern __shared__ float a[], b[]; }\n", "k.cu");
  ASSERT_EQ(t.diagnostics.size(), 1u);
  EXPECT_EQ(t.diagnostics[0].code, Diag::Wave64ExternShared);
}

// The API of a program: a HIP port that kept a CUDA header it could not convert (FRY1001) is HIP,
// since no CUDA program includes hip/hip_runtime.h; HIP and CUDA library headers without HIP's
// runtime header stay ambiguous.
// Warp-synchronous steps in shared memory (no barrier after them) become read, lock-step point,
// write, lock-step point; steps followed by a barrier, host code and same-index updates do not
// (docs/wave64.md, "Lock-step").
TEST(Wave64Transform, WarpSynchronousStepsGetLockstepPoints) {
  const std::string src =
      "__device__ void warp_reduce(volatile float* c, int t) {\n"
      "  c[t] += c[t + 32];\n"
      "  c[t] += c[t + 16];\n"
      "}\n"
      "template <class F> __global__ void k(float* out, F op) {\n"
      "  __shared__ float s[256];\n"
      "  extern __shared__ float d[];\n"
      "  const int t = threadIdx.x;\n"
      "  s[t] = out[t];\n"
      "  s[t] = s[t] * 2;\n"
      "  for (int i = 128; i > 32; i /= 2) {\n"
      "    if (t < i) s[t] += s[t + i];\n"
      "    __syncthreads();\n"
      "  }\n"
      "  if (t < 64) { d[t] = op(d[t], d[t + 64]); }\n"
      "  __syncthreads();\n"
      "  static_for([&]<int I>() { if (t < I) s[t] = op(s[t],\n"
      "                                               s[t + I]); });\n"
      "  for (int i = 16; i > 0; i /= 2) s[t] += s[t + i];\n"
      "  for (int i = 16; i > 0; i /= 2) {\n"
      "    __syncthreads();\n"
      "    if (t < i) s[t] += s[t + i]; }\n"
      "  if (t < 32) warp_reduce(s, t);\n"
      "}\n"
      "void host(float* s) { s[0] = s[1]; }\n"
      "__host__ __device__ void both(volatile float* v) { v[0] = v[1]; }\n";
  const Transformed t = transform_source(src, "a/r.hip", false);
  EXPECT_EQ(t.lockstep_points, 4) << t.text;
  // each step reads, waits, writes, then waits again
  EXPECT_NE(t.text.find("{ auto w64_ls = c[t]; w64_ls += (c[t + 32]); W64_LOCKSTEP(); c[t] = w64_ls; } "
                        "W64_LOCKSTEP();\n"),
            std::string::npos)
      << t.text;
  // after a brace-less if: after the if, where every lane arrives; a line break is kept
  EXPECT_NE(t.text.find("if (t < I) { auto w64_ls = (op(s[t],\n                                               "
                        "s[t + I])); W64_LOCKSTEP(); s[t] = w64_ls; } W64_LOCKSTEP(); });\n"),
            std::string::npos)
      << t.text;
  // under a brace-less loop: braced with it
  EXPECT_NE(t.text.find("i /= 2) { { auto w64_ls = s[t]; w64_ls += (s[t + i]); W64_LOCKSTEP(); s[t] = w64_ls; } "
                        "W64_LOCKSTEP(); }"),
            std::string::npos)
      << t.text;
  std::size_t points = 0;
  for (std::size_t at = t.text.find("W64_LOCKSTEP()"); at != std::string::npos;
       at = t.text.find("W64_LOCKSTEP()", at + 1))
    ++points;
  EXPECT_EQ(points, 8u) << t.text;
  // a step followed by a barrier, host code, __host__ __device__ code: as written
  EXPECT_NE(t.text.find("if (t < i) s[t] += s[t + i];\n    __syncthreads();"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("{ d[t] = op(d[t], d[t + 64]); }\n"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("{ s[0] = s[1]; }"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("{ v[0] = v[1]; }"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("if (t < i) s[t] += s[t + i]; }\n"), std::string::npos) << t.text;  // barrier at loop top
  EXPECT_EQ(lines(t.text), lines(src) + 1);                                                 // the #line
  ASSERT_EQ(t.region_notes.size(), 4u);
  EXPECT_NE(t.region_notes[0].find("a/r.hip:2:3: note: lock-step point"), std::string::npos) << t.region_notes[0];
}

// HIP has no cooperative-groups tile wider than the wavefront: the runtime's assertion becomes
// FRY9404 at the program's line that instantiated the tile (not the runtime header's).
TEST(Wave64Build, HipTileWiderThanTheWavefrontIsNamed) {
  const std::string out =
      "/p/lib/ferry/wave64/include/wave64/coop.h: In instantiation of 'class cooperative_groups::thread_block_tile<128, void>':\n"
      "/p/lib/ferry/wave64/include/wave64/coop.h:234:7:   required from 'class cooperative_groups::thread_block_tile<128, "
      "cooperative_groups::thread_block>'\n"
      "/w/src/home/p/red.cu:582:65:   required from 'void multi_warp_cg_reduce(T*, T*, unsigned int)'\n"
      "/w/src/home/p/red.cu:981:105:   required from here\n"
      "/p/lib/ferry/wave64/include/wave64/coop.h:174:19: error: static assertion failed: cooperative groups (HIP): a tile size must "
      "not be greater than the wavefront size\n"
      "/p/lib/ferry/wave64/include/wave64/coop.h:174:19: note: the comparison reduces to '(128 <= 64)'\n";
  const std::vector<Diagnostic> d = diagnose_compiler_output(out, "/w");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, Diag::Wave64HipTileWiderThanWave);
  EXPECT_EQ(d[0].file, "/home/p/red.cu");
  EXPECT_EQ(d[0].line, 582u);
  EXPECT_NE(d[0].message.find("tile of 128 threads"), std::string::npos) << d[0].message;
}

TEST(Wave64Build, DetectsTheApiOfAPortThatKeptACudaHeader) {
  const auto dir = std::filesystem::temp_directory_path() / ("ferry-w64-api-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto put = [&](const char* name, const char* text) {
    std::ofstream(dir / name) << text;
    return dir / name;
  };
  const auto port = put("port.cu", "#include <hip/hip_runtime.h>\n#include <cooperative_groups/memcpy_async.h>\n");
  const auto cuda = put("orig.cu", "#include <cuda_runtime.h>\n");
  const auto mixed = put("mixed.cpp", "#include <hipblas/hipblas.h>\n#include <cublas_v2.h>\n");
  EXPECT_EQ(detect_api({port}), Api::Hip);
  EXPECT_EQ(detect_api({cuda}), Api::Cuda);
  EXPECT_THROW((void)detect_api({mixed}), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

// A compile that stopped at a header this machine lacks (<GL/gl.h> on a machine without OpenGL's
// headers) still names the library stand-in the program includes after it (FRY9412), so an OpenGL
// program is UNSUPPORTED whether or not the machine has <GL/gl.h>; a program's own header of the
// stand-in's name is not the stand-in.
TEST(Wave64Build, StubIncludedAfterAMissingHeaderIsNamed) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("ferry-w64-stub-" + std::to_string(::getpid()));
  fs::create_directories(dir / "stubs");
  fs::create_directories(dir / "prog");
  const auto put = [&](const fs::path& name, const char* text) {
    std::ofstream(dir / name) << text;
    return dir / name;
  };
  put("stubs/cuda_gl_interop.h",
      "#error \"wave64 CPU runtime: <cuda_gl_interop.h> (OpenGL interop) is not supported; the runtime ...\"\n");
  put("stubs/cuda_runtime.h", "#pragma once\n");
  const auto helper = put("prog/helper_gl.h", "#pragma once\n#include <GL/gl.h>\n");
  const auto main =
      put("prog/main.cpp", "#include \"helper_gl.h\"\n#include <cuda_runtime.h>\n// x\n#include <cuda_gl_interop.h>\n");
  const std::vector<Diagnostic> d = stub_includes({helper, main}, {}, {dir / "stubs"});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, Diag::Wave64UnsupportedLibrary);
  EXPECT_EQ(d[0].file, main.string());
  EXPECT_EQ(d[0].line, 4u);
  EXPECT_NE(d[0].message.find("the program uses OpenGL interop (<cuda_gl_interop.h>"), std::string::npos)
      << d[0].message;
  // The program's own cuda_gl_interop.h, found next to the includer: not the stand-in.
  put("prog/cuda_gl_interop.h", "#pragma once\n");
  const auto own = put("prog/own.cpp", "#include \"cuda_gl_interop.h\"\n");
  EXPECT_TRUE(stub_includes({own}, {}, {dir / "stubs"}).empty());
  const auto own2 = put("prog/own2.cpp", "#include <cuda_gl_interop.h>\n");
  EXPECT_TRUE(stub_includes({own2}, {dir / "prog"}, {dir / "stubs"}).empty());
  EXPECT_EQ(stub_includes({own2}, {}, {dir / "stubs"}).size(), 1u);
  // Another header of a library whose top header is a stand-in: that library, wherever it is;
  // the only kind named when the compile failed in a copy of the library.
  fs::create_directories(dir / "stubs" / "rocprim");
  put("stubs/rocprim/rocprim.hpp", "#error \"wave64 CPU runtime: <rocprim/rocprim.hpp> (rocPRIM) is not supported\"\n");
  const auto prim = put("prog/prim.cpp", "#include <cuda_gl_interop.h>\n#include <rocprim/block/block_reduce.hpp>\n");
  const std::vector<Diagnostic> sub = stub_includes({prim}, {}, {dir / "stubs"}, true);
  ASSERT_EQ(sub.size(), 1u);
  EXPECT_EQ(sub[0].line, 2u);
  EXPECT_NE(sub[0].message.find("the program uses rocPRIM (<rocprim/block/block_reduce.hpp>"), std::string::npos)
      << sub[0].message;
  EXPECT_EQ(stub_includes({prim}, {}, {dir / "stubs"}).size(), 2u);
  fs::remove_all(dir);
}

// LIBRARY_PATH's folders, for the -L the driver puts before the host libraries it adds: the ones
// that exist, in order, once each (gcc itself searches them after the system's folders).
TEST(Wave64Build, LibraryPathFoldersInOrder) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("ferry-w64-libpath-" + std::to_string(::getpid()));
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  const char* old = std::getenv("LIBRARY_PATH");
  const std::string saved = old ? old : "";
  const std::string a = (dir / "a").string(), b = (dir / "b").string();
  ::setenv("LIBRARY_PATH", (b + ":" + (dir / "none").string() + "::" + a + ":" + b).c_str(), 1);
  EXPECT_EQ(library_path_dirs(), (std::vector<std::string>{b, a}));
  ::unsetenv("LIBRARY_PATH");
  EXPECT_TRUE(library_path_dirs().empty());
  if (old) ::setenv("LIBRARY_PATH", saved.c_str(), 1);
  fs::remove_all(dir);
}

// The built-in variables are macros in the runtime: host locals and parameters of those names
// (cuda-samples' tensor-core GEMMs: `dim3 gridDim; dim3 blockDim;` before a launch) are renamed
// within their scope; the built-ins in kernels, and members after `.`, stay.
TEST(Wave64Transform, HostLocalsNamedLikeBuiltinsAreRenamedInTheirScope) {
  const std::string src =
      "__global__ void k(int* o) { o[blockIdx.x * blockDim.x + threadIdx.x] = gridDim.x; }\n"
      "void run(int* o, bool big) {\n"
      "  if (big) {\n"
      "    dim3 gridDim;\n"
      "    dim3 blockDim;\n"
      "    blockDim.x = 128;\n"
      "    gridDim.x = 4;\n"
      "    k<<<gridDim, blockDim>>>(o);\n"
      "  } else {\n"
      "    k<<<1, 32>>>(o);\n"
      "  }\n"
      "  unsigned int gridDim = 3; int blockDim[3];\n"
      "  print(gridDim, blockDim[0], p.gridDim);\n"
      "}\n"
      "void launch(dim3 gridDim, int* o) { k<<<gridDim, 64>>>(o); }\n"
      "__global__ void k2(int* o) { o[0] = gridDim.y; }\n";
  const Transformed t = transform_source(src, "k.cu");
  EXPECT_TRUE(t.diagnostics.empty());
  EXPECT_NE(t.text.find("o[blockIdx.x * blockDim.x + threadIdx.x] = gridDim.x;"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("dim3 w64_host_gridDim;"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("w64_host_blockDim.x = 128;"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("hipLaunchKernelGGL(k, w64_host_gridDim, w64_host_blockDim, 0, 0, o)"), std::string::npos)
      << t.text;
  EXPECT_NE(t.text.find("unsigned int w64_host_gridDim = 3; int w64_host_blockDim[3];"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("print(w64_host_gridDim, w64_host_blockDim[0], p.gridDim);"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("void launch(dim3 w64_host_gridDim, int* o) { hipLaunchKernelGGL(k, w64_host_gridDim"),
            std::string::npos)
      << t.text;
  EXPECT_NE(t.text.find("o[0] = gridDim.y;"), std::string::npos) << t.text;
}

// rocm-examples' test and benchmark programs include Google Test / Benchmark, which their CMake
// links: the build links them too, `_main` archives first (a program with its own main keeps it).
TEST(Wave64Build, TestFrameworkIncludesAddTheirLibraries) {
  using V = std::vector<std::string>;
  EXPECT_EQ(test_framework_libraries("#include <hip/hip_runtime.h>\n#include <gtest/gtest.h>\n"),
            (V{"-lgtest_main", "-lgtest"}));
  EXPECT_EQ(test_framework_libraries("  # include <benchmark/benchmark.h>\n"), (V{"-lbenchmark_main", "-lbenchmark"}));
  EXPECT_EQ(test_framework_libraries("#include <gmock/gmock.h>\n#include <gtest/gtest.h>\n"),
            (V{"-lgmock_main", "-lgmock", "-lgtest", "-lgtest_main"}));
  EXPECT_TRUE(test_framework_libraries("// #include <gtest/gtest.h>\n#include \"gtest_like.h\"\n").empty());
}

// A failed compile says what stopped it, with Ferry's own codes: the runtime's stub header of a
// library (located at the program's #include, the mirror path given as the original), a header
// that is nowhere (with its library where known), a runtime API name the headers lack.
TEST(Wave64Build, CompilerOutputNamesUnsupportedLibrariesHeadersAndApis) {
  const std::string out =
      "In file included from /w/src/home/p/helper.h:2,\n"
      "                 from /home/p/main.cu:2:\n"
      "/rt/cuda/cublas_v2.h:2:2: error: #error \"wave64 CPU runtime: <cublas_v2.h> (cuBLAS) is not supported; the "
      "runtime runs kernels written against the HIP/CUDA runtime API only\"\n"
      "In file included from /home/p/other.cu:7:\n"
      "/rt/cuda/cublas_v2.h:2:2: error: #error \"wave64 CPU runtime: <cublas_v2.h> (cuBLAS) is not supported\"\n"
      "/home/p/main.cu:3:10: fatal error: cute/tensor.hpp: No such file or directory\n"
      "/home/p/g.cu:166:5: error: \xe2\x80\x98"
      "cudaKernelNodeParams\xe2\x80\x99 was not declared in this scope\n"
      "/home/p/g.cu:189:5: error: 'cudaMemcpy3DParms' does not name a type\n"
      "/home/p/g.cu:190:5: error: 'myHelper' was not declared in this scope\n"
      "/home/p/g.cu:191:5: error: 'cuda_pbo_resource' was not declared in this scope\n"  // a user's name
      "/home/p/h.cpp:4:10: fatal error: 'vendor/thing.h' file not found\n"
      "/home/p/g.cu:200:26:   required from here\n"
      "/rt/include/wave64/device.h:73:19: error: static assertion failed: wave64 CPU runtime: cudaGraphAddKernelNode "
      "is not supported (graph nodes built by hand; capture a stream instead)\n";
  const std::vector<Diagnostic> d = diagnose_compiler_output(out, "/w");
  ASSERT_EQ(d.size(), 6u);
  EXPECT_EQ(d[0].code, Diag::Wave64UnsupportedLibrary);
  EXPECT_EQ(d[0].file, "/home/p/helper.h");  // the includer, not the stub; the mirror mapped back
  EXPECT_EQ(d[0].line, 2u);
  EXPECT_NE(d[0].message.find("uses cuBLAS (<cublas_v2.h>"), std::string::npos) << d[0].message;
  EXPECT_EQ(d[1].code, Diag::Wave64MissingHeader);  // one cuBLAS diagnostic, not two
  EXPECT_NE(d[1].message.find("<cute/tensor.hpp>"), std::string::npos);
  EXPECT_NE(d[1].message.find("CUTLASS/CuTe"), std::string::npos);
  EXPECT_EQ(d[2].code, Diag::Wave64MissingApi);
  EXPECT_EQ(d[2].line, 166u);
  EXPECT_NE(d[2].message.find("`cudaKernelNodeParams`"), std::string::npos);
  EXPECT_EQ(d[3].code, Diag::Wave64MissingApi);
  EXPECT_NE(d[3].message.find("`cudaMemcpy3DParms`"), std::string::npos);
  EXPECT_EQ(d[4].code, Diag::Wave64MissingHeader);  // clang's form; no library known
  EXPECT_NE(d[4].message.find("checkout lacks"), std::string::npos);
  EXPECT_EQ(d[5].code, Diag::Wave64MissingApi);  // a stand-in's static assertion, at the user's line
  EXPECT_EQ(d[5].file, "/home/p/g.cu");
  EXPECT_EQ(d[5].line, 200u);
  EXPECT_NE(d[5].message.find("`cudaGraphAddKernelNode`"), std::string::npos);
  EXPECT_NE(d[5].message.find("graph nodes built by hand"), std::string::npos);
  EXPECT_TRUE(diagnose_compiler_output("a.cu:1:1: error: expected ';'\n", "/w").empty());

  // A header no include path has, which the runtime's other side stubs: that library (a HIP port
  // that kept <cuda/barrier>).
  const auto stubs = std::filesystem::temp_directory_path() / ("w64stubs" + std::to_string(::getpid()));
  std::filesystem::create_directories(stubs / "cuda");
  std::ofstream(stubs / "cuda" / "barrier")
      << "#error \"wave64 CPU runtime: <cuda/barrier> (async barriers) is not supported; ...\"\n";
  const std::vector<Diagnostic> k = diagnose_compiler_output(
      "/home/p/port/aw.cu:34:10: fatal error: cuda/barrier: No such file or directory\n", "/w", {stubs});
  std::filesystem::remove_all(stubs);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].code, Diag::Wave64UnsupportedLibrary);
  EXPECT_EQ(k[0].line, 34u);
  EXPECT_NE(k[0].message.find("uses async barriers (<cuda/barrier>"), std::string::npos) << k[0].message;
}

}  // namespace
}  // namespace ferry::wave64
