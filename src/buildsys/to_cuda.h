// What the HIP -> CUDA build-file migrators share (build_files_cuda_make.cpp for Makefiles,
// build_files_cuda_cmake.cpp for CMake, docs/build-files.md "The other way"): diagnostics, the ROCm
// libraries and their CUDA counterparts, hipcc words and the architecture and CUDA release asked
// for. Internal to src/buildsys/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "buildsys/build_files.h"
#include "buildsys/roundtrip_record.h"
#include "core/diagnostic.h"
#include "rules/cuda_version.h"

namespace ferry::buildsys::to_cuda {

Diagnostic diag(Diag code, Severity sev, const std::string& rel, std::uint32_t line, std::string msg,
                std::string hint = "");

bool starts_with(std::string_view s, std::string_view p);

// ROCm libraries -> CUDA: -l name, CMake target, and whether CUDA ships it as a library at all
// (hipCUB, rocPRIM, rocThrust are header-only; CCCL comes with every CUDA toolkit).
struct RocLib {
  const char* rocm;         // -l name / plain CMake name
  const char* cuda;         // -l name ("" = nothing to link)
  const char* cuda_target;  // CMake imported target ("" = nothing to link)
  // Why nothing is linked, when it is not a header-only library (AMD's runtime internals).
  const char* none_why = nullptr;
};
const RocLib* find_roc_lib(std::string_view name);
// CMake imported targets of ROCm's packages (hip::device, roc::hipblas, hip::hipcub, ...).
const RocLib* find_roc_target(std::string_view t);
// find_package names of ROCm's packages: all become find_package(CUDAToolkit).
bool is_rocm_package(std::string_view p);

bool is_hipcc_word(std::string_view w);
bool is_nvcc_word(std::string_view w);
// A CMake value naming hipcc: the word itself or a variable of that name (${HIP_HIPCC_EXECUTABLE},
// which find_package(hip) set, ${HIPCC}, $ENV{HIPCC}).
bool is_hipcc_value(std::string_view v);
// A CMake value naming ROCm's clang as a compiler: amdclang++, ${ROCM_PATH}/llvm/bin/clang++,
// /opt/rocm/llvm/bin/clang++ (a path or variable that names ROCm or HIP, ending in llvm/bin/clang++).
bool is_rocm_clang_value(std::string_view v);
// ${OpenMP_CXX_FLAGS} / ${OpenMP_C_FLAGS}: FindOpenMP's host compiler flags.
bool is_openmp_flags_ref(std::string_view v);

// "sm_90", "compute_90", "90" -> 90; 0 when it is not an NVIDIA architecture.
int sm_number(std::string_view a);
// The architecture the files get: --arch when it names an NVIDIA one, else sm_90.
std::string cuda_arch(const Options& o);
std::string cuda_arch_number(const Options& o);
rules::CudaVersion version(const Options& o);

// A -D of a user macro that selects wavefront-64 code (Options::facts, or its name): the words it
// takes (1 or 2), what replaces them ("" = dropped) and the FRY5240 message.
struct Wave64Define {
  std::size_t words;
  std::string replacement;
  std::string message;
};
std::optional<Wave64Define> wave64_define(const std::vector<std::string>& w, std::size_t i, const Options& o);

// " --extended-lambda --expt-relaxed-constexpr" for build file `rel` (each only where
// Options::facts says a file under its folder needs it; "" when neither) and their FRY5241 notes.
std::string needed_nvcc_flags(const Options& o, const std::string& rel);
// The first place under the folder of build file `rel` whose code calls the driver API (the
// CUDA library is libcuda, CUDA::cuda_driver; HIP's libamdhip64 held both): "" when none does.
std::string driver_api_under(const Options& o, const std::string& rel);
void note_flags_added(const Options& o, const std::string& rel, std::uint32_t line, std::vector<Diagnostic>& diags);

// Host-compiler flags nvcc does not take itself.
bool is_host_only_flag(std::string_view w);

// The text with the CUDA lines the CUDA -> HIP migration recorded put back (roundtrip_record.h);
// a note in `r` for each record whose lines were edited since (`what`: "flags", "settings").
[[nodiscard]] Restored restore_recorded(const std::string& rel, std::string_view text, std::string_view what,
                                        Result& r);

}  // namespace ferry::buildsys::to_cuda
