// A target converter plugin: the rule tables and semantic passes that move code from one
// ecosystem to another (hip/: CUDA→HIP, cuda/: HIP→CUDA, ...). Adding a target adds a folder and
// one line in targets/registry.cpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rules/rule_set.h"

namespace ferry::migrate {
class FileMigration;
}
namespace ferry::analysis {
struct Wave64FixPlan;
}
namespace ferry::project {
enum class FileKind;
[[nodiscard]] bool is_c_family(FileKind k);
}

namespace ferry::targets {

struct Options {
  std::string launch = "chevron";  // kernel launches: "chevron" keeps <<<>>>, "ggl" → hipLaunchKernelGGL
  std::string blas = "hipblas";    // cuBLAS target library: "hipblas" or "rocblas"
  std::string sparse = "hipsparse";  // cuSPARSE target library: "hipsparse" or "rocsparse"
  bool hip_data_types = false;  // hip: cudaDataType -> hipDataType in every library's calls too
  // hip: the HIP release to write code for, a profile name or X.Y (targets/hip/toolchain.h);
  // empty: the installed HIP, else the first profile.
  std::string hip_version;
  std::vector<std::string> user_rule_files;  // --rules FILE..., override built-in rows
  std::string cuda_version;  // cuda target: --cuda-version X.Y (empty: the installed nvcc's, else 13.0)
  bool wave64_fix = true;          // rewrite 32-lane assumptions for wave64 (hip; --no-wave64-fix)
  bool rewrite_strings = false;    // hip: API names inside string literals too (--rewrite-strings)
};

// A source file as the project-wide pre-pass sees it.
struct SourceView {
  std::string path;  // relative to the project root
  std::string_view text;
};

// Facts about the whole project that passes need while migrating one file.
struct ProjectContext {
  // User identifiers that clash with names the target's headers define, and their new names.
  std::unordered_map<std::string, std::string> clash_renames;
  // Where each clashing name was declared ("file:line"), for the report.
  std::unordered_map<std::string, std::string> clash_origins;
  // Clashing names left as written because a use ("file:line") is excluded from migration
  // (`// ferry: ignore`, `off`): renaming only the other uses would break the build.
  std::unordered_map<std::string, std::string> clash_kept;
  // Every name some file of the project `#define`s (migrate::defined_macros): a use of such a
  // name is the user's macro, which a call template must not rewrite.
  std::unordered_set<std::string> defined_macros;
  // The wave64 lane-math fixes planned over the whole project (analysis/wave64_fix.h), keyed by
  // SourceView::path; null when the target does not fix lane math.
  std::shared_ptr<const analysis::Wave64FixPlan> wave64_fixes;
  // One file migrated on its own (its path is not relative to a tree root): files a pass writes
  // for the whole tree (hip: ferry/compat/) go beside it.
  bool single_file = false;
  // The cuda target: per source file (relative path), the headers it includes as written
  // ("<cstdio>", "\"util/common.h\""), so a pass can see what a file gets through its own headers.
  std::unordered_map<std::string, std::vector<std::string>> includes;
};

class Target {
 public:
  virtual ~Target() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;            // "hip"
  [[nodiscard]] virtual std::string_view source_dialect() const = 0;  // "cuda"
  [[nodiscard]] virtual std::string_view summary() const = 0;
  [[nodiscard]] virtual const rules::RuleSet& rules() const = 0;
  // The release the target writes code for, for messages ("HIP 5.2 (rocm-5.2)"); empty when the
  // target has no version model. Rules it lacks carry Availability::Missing or Compat.
  [[nodiscard]] virtual std::string release() const { return {}; }
  // Which files of a tree this target rewrites (the others are copied): C-family sources by
  // default; the torch_npu target takes Python instead.
  [[nodiscard]] virtual bool migrates(project::FileKind kind) const { return project::is_c_family(kind); }

  // Sees every source file before any is migrated.
  virtual void prepare_project(const std::vector<SourceView>& /*files*/, ProjectContext& /*ctx*/) const {}
  // Semantic passes; they run before the generic rule application and their edits win.
  virtual void run_passes(migrate::FileMigration& file) const = 0;
  // Runs after the rules (e.g. inserting a runtime header the file now needs).
  virtual void finish_file(migrate::FileMigration& /*file*/) const {}
};

struct TargetInfo {
  std::string_view name;
  std::string_view source_dialect;
  std::string_view summary;
};

// All registered targets, for `ferry targets` and error messages.
[[nodiscard]] std::vector<TargetInfo> list_targets();

// Builds target `name` (loading its built-in tables and the user's rule files). Throws
// std::invalid_argument for an unknown name, with the known names in the message.
[[nodiscard]] std::unique_ptr<Target> make_target(std::string_view name, const Options& options);

}  // namespace ferry::targets
