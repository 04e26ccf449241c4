// Build files: CMake, Makefiles and PyTorch setup.py, moved from the CUDA toolchain to HIP
// (docs/build-files.md). A module of its own (not a target pass) because build files are not C++:
// each has its own small tokenizer here, and rewrites happen on tokens, never inside comments.
//
//   CMake     CUDA language -> hipcc as the C++ compiler + find_package(hip) + hip::device,
//             .cu sources marked LANGUAGE CXX, CUDA::xxx -> hip::/roc:: targets,
//             CMAKE_CUDA_ARCHITECTURES -> GPU_TARGETS, nvcc flags mapped or dropped.
//   Makefile  nvcc -> hipcc, -arch/-gencode -> --offload-arch, -lcudart... -> HIP libraries,
//             nvcc-only flags mapped or dropped (one diagnostic each).
//   setup.py  CUDAExtension left as it is, with an explanation (ROCm PyTorch hipifies it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "buildsys/source_facts.h"
#include "core/diagnostic.h"
#include "project/project.h"

namespace ferry::buildsys {

struct Options {
  // hip: --offload-arch / GPU_TARGETS; cuda: -arch / CMAKE_CUDA_ARCHITECTURES (an AMD name there means the
  // default, sm_90). migrate_build_file picks the target's default when it is empty.
  std::string arch = "gfx906";
  std::string cuda_version = "13.0";  // cuda target: the nvcc the files are written for
  // cuda target: what the tree's HIP sources say (wave64 selector macros, nvcc flags the code
  // needs); empty for a build file migrated alone, and for a tree that is Ferry's own --to hip
  // output (its CUDA originals built with the flags they had).
  SourceFacts facts;
};

struct Result {
  std::string output;
  std::vector<Diagnostic> diagnostics;
};

// CUDA → HIP for one build file (the hip target's Target::migrate_build_file); nullopt when it
// is not a build file converted here (then it is copied).
[[nodiscard]] std::optional<Result> migrate_build_file(const std::string& rel, project::FileKind kind,
                                                       std::string_view text, const Options& options);
// HIP → CUDA for one build file (the cuda target's); nullopt for what is copied (setup.py too).
[[nodiscard]] std::optional<Result> migrate_build_file_to_cuda(const std::string& rel, project::FileKind kind,
                                                               std::string_view text, const Options& options);

// `verbatim`: byte ranges of `text` left as written (lines a HIP -> CUDA record gave back).
[[nodiscard]] Result migrate_cmake(const std::string& rel, std::string_view text, const Options& options,
                                   const std::vector<std::pair<std::size_t, std::size_t>>& verbatim = {});
[[nodiscard]] Result migrate_makefile(const std::string& rel, std::string_view text, const Options& options,
                                      const std::vector<std::pair<std::size_t, std::size_t>>& verbatim = {});
// HIP -> CUDA (docs/build-files.md, "The other way"): hipcc -> nvcc, --offload-arch -> -arch,
// HIP libraries -> CUDA's, the HIP language and packages -> CUDA's; what the CUDA -> HIP migration
// recorded (roundtrip_record.h) is restored first, exactly.
[[nodiscard]] Result migrate_cmake_to_cuda(const std::string& rel, std::string_view text, const Options& options);
[[nodiscard]] Result migrate_makefile_to_cuda(const std::string& rel, std::string_view text, const Options& options);
[[nodiscard]] Result explain_setup_py(const std::string& rel, std::string_view text);

// nvcc command-line words -> hipcc words. Each input word gets its replacement ("" drops it;
// several words are joined by a space). `line` is for diagnostics.
// hipcc words -> nvcc words, the same contract as map_nvcc_words. `host_flags` wraps host-compiler
// flags nvcc does not know (-Wall, -fopenmp, -march=...) as -Xcompiler=...: set it only for words
// that reach nvcc and nothing else.
[[nodiscard]] std::vector<std::string> map_hipcc_words(const std::vector<std::string>& words, const Options& options,
                                                       const std::string& rel, std::uint32_t line,
                                                       std::vector<Diagnostic>& diags, bool host_flags);

[[nodiscard]] std::vector<std::string> map_nvcc_words(const std::vector<std::string>& words, const Options& options,
                                                      const std::string& rel, std::uint32_t line,
                                                      std::vector<Diagnostic>& diags);

}  // namespace ferry::buildsys
