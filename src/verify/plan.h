// What to compile and with which flags: the translation units of a tree, include directories
// inferred from it, or the project's compile_commands.json translated for the target toolchain.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/profile.h"

namespace ferry::verify {

struct TranslationUnit {
  std::string rel;                       // relative to the tree root, '/'-separated
  bool is_c = false;                     // a .c file: compiled as C, no device code
  std::vector<std::string> flags;        // -I/-D/-U/-std/-include, for the tree being verified
  std::vector<std::string> orig_flags;   // the same for the original tree (pre-existing check)
  std::string flag_source = "inferred";  // or "compile_commands.json"
};

struct Plan {
  std::vector<TranslationUnit> units;
  std::set<std::string> files;  // every file of the tree (rel), to tell local headers from libraries
  std::optional<std::filesystem::path> compile_commands;  // the database used, if any
};

struct PlanOptions {
  std::filesystem::path root;                             // the tree to verify
  std::optional<std::filesystem::path> input;             // the original tree (from the manifest), if known
  std::optional<std::filesystem::path> compile_commands;  // explicit --compile-commands
  std::vector<std::string> exclude;                       // rel prefixes to skip
};

[[nodiscard]] bool is_translation_unit(std::string_view rel);

// Throws std::runtime_error when the root cannot be walked or a given database cannot be read.
[[nodiscard]] Plan make_plan(const PlanOptions& options);

// Translates one compile_commands.json command for another toolchain: keeps -I/-isystem/-iquote/
// -D/-U/-std/-include and OpenMP (as verify/openmp.h's neutral -fopenmp) (paths made absolute against `directory`,
// paths under `from_root` moved to `to_root`), drops everything else (nvcc-only flags, -arch/-gencode, -O, -o, -c, the
// source). Include directories outside both trees that belong to a CUDA toolkit are dropped when `drop_cuda_paths` is
// set (compiling for AMD).
[[nodiscard]] std::vector<std::string> translate_flags(const std::vector<std::string>& args,
                                                       const std::filesystem::path& directory,
                                                       const std::filesystem::path& from_root,
                                                       const std::filesystem::path& to_root, bool drop_cuda_paths);

// Splits a shell command line the way a POSIX shell would (quotes, backslashes); no expansion.
[[nodiscard]] std::vector<std::string> split_command(std::string_view command);

// The compiler command for one unit and profile, object file last.
[[nodiscard]] std::vector<std::string> compile_command(const std::string& compiler, const analysis::Profile& profile,
                                                       const std::string& source, bool is_c,
                                                       const std::vector<std::string>& flags,
                                                       const std::string& object);

}  // namespace ferry::verify
