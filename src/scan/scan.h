// `ferry scan`: a project read without changing it — what is there and how hard the port will be.
// The module is one file per concern: scan.cpp (walk, parallel scan, aggregation), c_family.cpp,
// python.cpp (and Bazel), build_files.cpp (CMake through buildsys::parse_cmake, Makefiles),
// libraries.cpp (which library a use belongs to: rules/libraries.h, the table buildsys shares),
// effort.cpp and render.cpp (JSON and text).
//
// `scan_project` walks a tree (or takes one file), classifies every file, reads
// the sources that can be parsed, and records every GPU API use with its exact
// location. Names are recognised by lexing (strings and comments never count)
// and looking tokens up in the rule tables of the targets being evaluated; for
// every use the support status in each target's table is kept, so one scan
// answers "how much of this ports to HIP (and to any other target of the same
// source dialect)". From the uses it derives the GPU libraries and frameworks
// in play, the build systems (CMake, Make with nvcc, setuptools with
// CUDAExtension, Bazel), and an effort estimate per file and overall (model:
// docs/scan.md). Bad input never throws: it becomes FRY9xxx diagnostics in
// `problems`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostic.h"
#include "project/project.h"
#include "targets/target.h"

namespace ferry::scan {

// One occurrence of something GPU-specific in a file.
struct ApiUse {
  std::string file;  // relative to the scanned root ('/'-separated)
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  std::string name;     // "cudaMalloc", "cublas_v2.h", "thrust::sort", "asm",
                        // kernel name...
  std::string family;   // rule family ("runtime", "cublas", ...) or "kernel",
                        // "pytorch", "build"
  std::string kind;     // function type enum macro header namespace kernel launch
                        // inline-asm warp-intrinsic import call device-string
  std::string library;  // id from library_name(): "cuda-runtime", "cublas",
                        // "pytorch", ...
  // Target name -> "supported" | "unsupported" | "deprecated" | "changed" |
  // "unknown"
  // ("unknown": the target's table does not know the name).
  std::map<std::string, std::string> status;
  std::string note;  // from the first target's rule, when it has one
};

struct BuildSystem {
  std::string id;      // "cmake", "make", "setuptools", "bazel"
  std::string detail;  // what makes it a GPU build: "project(... LANGUAGES
                       // CUDA)", "nvcc", ...
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t col = 0;
};

struct Effort {
  double hours = 0;
  std::string level = "none";  // none, low, medium, high
};

struct FileInventory {
  std::string rel;
  std::string kind;  // project::kind_name, or "bazel"
  std::uintmax_t size = 0;
  std::size_t lines = 0;
  bool parsed = false;  // false: not a kind we parse, or refused (binary, too
                        // large, unreadable)
  std::size_t uses = 0;
  std::size_t kernels = 0;
  std::size_t launches = 0;
  std::size_t warp_intrinsics = 0;
  std::size_t inline_asm = 0;
  std::map<std::string, std::map<std::string, std::size_t>> status_counts;  // target -> status -> n
  std::map<std::string, Effort> effort;                                     // target -> effort
  // C-family files with GPU uses are migrated in memory for each target (the output is
  // discarded): what that migration leaves for a person, by code ("FRY1001" -> n; warnings and
  // errors only), and how many of the file's uses it handled on its own (a supported or
  // deprecated use on a line without such a diagnostic). Target -> ...
  std::map<std::string, std::map<std::string, std::size_t>> left;
  std::map<std::string, std::size_t> automatic;
  std::map<std::string, std::size_t> judged;  // uses with a status for the target
  bool migrated = false;
};

struct LibraryUse {
  std::string id;
  std::string name;      // display name: "cuBLAS"
  std::string category;  // "gpu-library" or "framework"
  std::size_t uses = 0;  // API uses (includes and imports count too)
  std::vector<std::string> files;
  std::string first;  // "file:line:col" of the first evidence
};

// Framework coverage (docs/scan.md, "Framework coverage"): a PyTorch API use in a Python file
// and what the PyTorch -> MindSpore mapping tables (rules/torch2mindspore/) say of it.
struct FrameworkUse {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  std::string name;       // fully qualified PyTorch name: "torch.nn.Linear", "torch.Tensor.view"
  std::string kind;       // "api" (a torch.* name, however imported) or "method" (a .name(...) call
                          // that only the Tensor/Module/Optimizer tables know: its receiver's type is
                          // not known to scan)
  std::string status;     // "same" | "diff" | "unmapped" (a row says unsupported, or there is none)
  std::string mindspore;  // the mapped name, empty when unmapped
};

struct FrameworkCoverage {
  std::string from = "pytorch", to = "mindspore";
  std::size_t uses = 0, same = 0, diff = 0, unmapped = 0;
  std::size_t files = 0;                              // Python files with at least one use
  std::map<std::string, std::size_t> unmapped_names;  // name -> uses
  Effort effort;
  std::vector<FrameworkUse> list;  // sorted by file, line, col
};

struct ScanOptions {
  std::vector<std::string> targets;  // empty: every registered target whose dialect is `from`
  std::string from = "cuda";
  targets::Options target_options;
  unsigned jobs = 1;
  std::uintmax_t max_file_size = 64ull << 20;
  // Progress (report/progress.h wires them; the scanner never prints). Optional; once with the
  // number of files and their bytes, then from worker threads once per file scanned.
  std::function<void(std::size_t files, std::uintmax_t bytes)> on_start;
  std::function<void(std::uintmax_t file_bytes)> on_file_done;
};

struct Inventory {
  std::string root;
  bool single_file = false;
  std::vector<std::string> targets;  // evaluated, in order
  std::vector<FileInventory> files;  // sorted by rel
  std::vector<ApiUse> uses;          // sorted by file, line, col
  std::vector<BuildSystem> build_systems;
  std::vector<LibraryUse> libraries;  // sorted by uses, descending
  std::map<std::string, std::size_t> kind_counts;
  std::map<std::string, Effort> effort;  // target -> overall
  // Sums of FileInventory::left / automatic / judged over the files migrated in memory.
  std::map<std::string, std::map<std::string, std::size_t>> left;
  std::map<std::string, std::size_t> automatic;
  std::map<std::string, std::size_t> judged;
  std::vector<Diagnostic> problems;  // FRY9xxx, sorted
  FrameworkCoverage framework;       // PyTorch -> MindSpore coverage of the Python files
  std::uintmax_t bytes = 0;
  double seconds = 0;
  bool fatal = false;  // the input itself could not be scanned (missing,
                       // unreadable, a FIFO...)
};

// Throws std::invalid_argument only for bad options (unknown target, dialect
// mismatch); every problem with the input is reported in `problems`.
[[nodiscard]] Inventory scan_project(const std::filesystem::path& path, const ScanOptions& options);

// Scans one buffer as file `rel` of kind `kind` against `targets` (first one
// names families). Used by scan_project and by tests.
void scan_buffer(const std::string& rel, const std::string& kind, std::string_view text,
                 const std::vector<const targets::Target*>& targets, FileInventory& file, std::vector<ApiUse>& uses,
                 std::vector<BuildSystem>& builds);

// The PyTorch API uses of one Python file with their MindSpore coverage (framework.cpp; aliases
// from `import torch.nn as nn`, `from torch import optim`, ... resolved per file).
[[nodiscard]] std::vector<FrameworkUse> framework_uses(const std::string& rel, std::string_view python_text);
// Totals, unmapped names and the effort left over `uses` (docs/scan.md, "Framework coverage").
[[nodiscard]] FrameworkCoverage framework_coverage(std::vector<FrameworkUse> uses);

[[nodiscard]] std::string library_name(std::string_view id);
// Effort model (docs/scan.md): hours for one file's uses under one target, and
// its level.
[[nodiscard]] Effort file_effort(const std::vector<const ApiUse*>& uses, std::string_view target, bool parsed_source);
[[nodiscard]] std::string overall_level(double hours);
// The effort of a file that was migrated in memory (docs/scan.md, "Effort model"): what the
// migration left (diagnostics by category) plus what scan sees that no pass handles (names no
// table knows, inline asm), for one target.
// Hours for porting one build file that a target converts: checking the converted file, plus
// what the conversion left (FRY5004 constructs for review, FRY5002 dropped nvcc flags, ...).
[[nodiscard]] double build_effort(const std::vector<Diagnostic>& left);
[[nodiscard]] Effort migrated_effort(const std::vector<const ApiUse*>& uses, const std::vector<Diagnostic>& left,
                                     std::string_view target);

// The JSON report (schema: docs/scan.md) and the text summary printed by `ferry
// scan`.
[[nodiscard]] nlohmann::json inventory_to_json(const Inventory& inv);
// The text summary: counts per kind and the heaviest files; all_files lists every file with GPU
// uses and every build file instead.
[[nodiscard]] std::string inventory_summary(const Inventory& inv, bool list_uses, bool all_files = false);

}  // namespace ferry::scan
