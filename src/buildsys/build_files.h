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

#include "core/diagnostic.h"
#include "project/project.h"

namespace ferry::buildsys {

struct Options {
  std::string arch = "gfx906";  // --offload-arch / GPU_TARGETS
};

struct Result {
  std::string output;
  std::vector<Diagnostic> diagnostics;
};

// CUDA → HIP for one build file (the hip target's Target::migrate_build_file); nullopt when it
// is not a build file converted here (then it is copied).
[[nodiscard]] std::optional<Result> migrate_build_file(const std::string& rel, project::FileKind kind,
                                                       std::string_view text, const Options& options);

[[nodiscard]] Result migrate_cmake(const std::string& rel, std::string_view text, const Options& options);
[[nodiscard]] Result migrate_makefile(const std::string& rel, std::string_view text, const Options& options);
[[nodiscard]] Result explain_setup_py(const std::string& rel, std::string_view text);

// nvcc command-line words -> hipcc words. Each input word gets its replacement ("" drops it;
// several words are joined by a space). `line` is for diagnostics.
[[nodiscard]] std::vector<std::string> map_nvcc_words(const std::vector<std::string>& words, const Options& options,
                                                      const std::string& rel, std::uint32_t line,
                                                      std::vector<Diagnostic>& diags);

// One CMake command as written: name, arguments, byte ranges (for tests and the rewriter).
struct CMakeArg {
  std::string text;  // as written (quotes included)
  std::size_t begin, end;
  bool quoted, bracket;
};
struct CMakeCommand {
  std::string name;  // lower-cased
  std::size_t begin, end;  // from the name to the closing parenthesis
  std::uint32_t line;
  std::vector<CMakeArg> args;
};
// Throws std::runtime_error on unbalanced parentheses or unterminated quotes/brackets.
[[nodiscard]] std::vector<CMakeCommand> parse_cmake(std::string_view text);

}  // namespace ferry::buildsys
