// `ferry wave64 build`: compiles a HIP (or CUDA) program with the host compiler against the
// wave64 CPU runtime (runtime/wave64), so its kernels run on fibers with 64-lane wavefronts
// (or 32-lane warps for the CUDA reference).
//
// The sources given and every project header they include (quoted includes, and angle includes
// found in the -I folders) are transformed (transform.h) into a mirror tree under the work
// folder, keeping their relative layout, so includes resolve there first. System and library
// headers are left to the compiler; our runtime's headers stand in for HIP's and CUDA's.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "verify/process.h"

namespace ferry::wave64 {

enum class Api { Auto, Hip, Cuda };
[[nodiscard]] const char* api_name(Api a);

struct BuildOptions {
  std::vector<std::filesystem::path> sources;
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::string> defines;     // NAME or NAME=VALUE
  std::vector<std::string> cxx_flags;   // extra compiler flags
  std::vector<std::string> link_flags;  // extra linker flags (-lfoo)
  Api api = Api::Auto;
  int wave = 0;  // 0: 64 for HIP, 32 for CUDA
  // The device the runtime models (docs/wave64.md, "The device model"): "gfx906" or "sm90";
  // empty: the API's own (gfx906 for HIP, sm90 for CUDA). Only the warp size differs between
  // two builds of one model, which is what `diffrun --wave64` compares.
  std::string device;
  std::string cxx = "g++";
  std::string std = "gnu++17";
  std::string opt = "1";           // -O level: 0 1 2 3 s g fast
  std::filesystem::path output;    // the executable
  std::filesystem::path work_dir;  // default: OUTPUT + ".w64"
  unsigned jobs = 0;               // 0: one per core
  bool warnings = false;           // show the compiler's warnings for user code
  // The region pass (src/wave64/regions.h): kernels split at their barriers and warp operations
  // run as loops over lanes. Off: every kernel keeps only the fiber path.
  bool regions = true;
  std::chrono::seconds timeout{900};  // per compiler run
};

struct BuildResult {
  bool ok = false;
  Api api = Api::Auto;
  int wave = 0;
  std::string device;                   // the device model built in: gfx906 or sm90
  std::vector<Diagnostic> diagnostics;  // from the transformation (errors stop the build)
  std::string compiler_output;          // what the compiler and linker printed
  std::vector<std::vector<std::string>> commands;
  std::size_t files = 0;  // files transformed into the mirror
  int launches = 0;
  int dynamic_shared = 0;
  int regions_split = 0;                  // kernels given a region form (regions.h)
  std::vector<std::string> region_notes;  // per kernel with barriers or warp operations
  bool openmp = false;                    // a file uses OpenMP: compiled and linked with -fopenmp
  double seconds = 0;
};

// Where the runtime's headers and library are: FERRY_WAVE64_ROOT (include/, hip/, cuda/,
// lib/libferry_wave64.a) or the build tree Ferry was built in. Throws std::runtime_error.
struct RuntimeLocation {
  std::filesystem::path include;
  std::filesystem::path hip;
  std::filesystem::path cuda;
  std::filesystem::path library;
  std::vector<std::string> link;  // libraries the runtime needs (boost.context, pthread)
};
[[nodiscard]] RuntimeLocation locate_runtime();

// The host libraries a file's includes ask for: Google Test (<gtest/...>, <gmock/...>) and
// Google Benchmark (<benchmark/...>), as -l flags with their `_main` archives first (rocm-examples'
// test and benchmark programs; their CMake links GTest::gtest_main / benchmark::benchmark). A
// system without them stops at the include, with the compiler's message.
[[nodiscard]] std::vector<std::string> test_framework_libraries(std::string_view text);

// What stopped a failed compile, from the compiler's output (gcc or clang), one diagnostic per
// library, header or name: FRY9412 a library the runtime does not run (its stub header's #error,
// located at the program's #include), FRY9413 a header on no include path (named with its
// library where known: CUTLASS, Vulkan, OpenGL...), FRY9414 a cuda*/hip* name the runtime's
// headers do not declare. Paths under WORK/src (the transformed mirror) are given as the originals.
// A header on no include path that one of STUB_DIRS (the runtime's cuda/ and hip/ stand-ins) has
// as a library stub is that library (FRY9412): a CUDA library header kept by a HIP port.
[[nodiscard]] std::vector<Diagnostic> diagnose_compiler_output(
    std::string_view output, const std::filesystem::path& work,
    const std::vector<std::filesystem::path>& stub_dirs = {});

// LIBRARY_PATH's folders that exist, in order, without repeats: given as -L before the host
// libraries the driver adds (test_framework_libraries), so that they win over the system's copies.
[[nodiscard]] std::vector<std::string> library_path_dirs();

// The runtime's library stand-ins that FILES include (headers in one of STUB_DIRS, the runtime's
// cuda/ and hip/, whose #error names a library: <cuda_gl_interop.h>, <curand.h>, and <cuda/barrier>
// kept by a HIP port), each as FRY9412 at its #include, once per library.
// A compile can stop before it reaches them (a header this machine lacks, such as <GL/gl.h>, is
// included first, FRY9413): the program still uses a library the runtime cannot run, whatever
// the order of its includes and whichever headers the machine has. An include that DIRS or the
// including file's folder resolve (the program's own header of that name) is not the stand-in.
// Another header of a library whose top header is a stand-in (<rocprim/block/block_reduce.hpp>
// beside the stand-in <rocprim/rocprim.hpp>) is that library too, wherever it resolves; with
// SUB_HEADERS_ONLY only those are named (a compile that failed in a copy of the library).
[[nodiscard]] std::vector<Diagnostic> stub_includes(const std::vector<std::filesystem::path>& files,
                                                    const std::vector<std::filesystem::path>& dirs,
                                                    const std::vector<std::filesystem::path>& stub_dirs,
                                                    bool sub_headers_only = false);

// The API of a program: what its files include (hip/... or cuda_*.h), else CUDA for .cu files
// (nvcc includes cuda_runtime.h by itself) and HIP otherwise. Throws std::invalid_argument when
// one program includes both.
[[nodiscard]] Api detect_api(const std::vector<std::filesystem::path>& files);

[[nodiscard]] BuildResult build(const BuildOptions& options, const verify::ProcessRunner& runner);

// Runs `exe` with `args`, stdin/stdout/stderr inherited; the exit code, or 128 + signal.
[[nodiscard]] int run_program(const std::filesystem::path& exe, const std::vector<std::string>& args);

}  // namespace ferry::wave64
