// A target converter plugin: the rule tables and semantic passes that move code from one
// ecosystem to another (hip/: CUDA→HIP, cuda/: HIP→CUDA, ...), and what belongs to the target
// alone: its command-line options, its build-file migration and its default hardware profile.
//
// Adding a target = one folder targets/<name>/ defining a Target subclass and its TargetInfo
// (name, dialect, summary, options, profiles, factory), plus one line in targets/registry.cpp.
// Adding an option to a target = one OptionSpec row in its TargetInfo; the CLI registers every
// target's options, and the target reads the value with option()/flag().
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "buildsys/build_files.h"
#include "core/phase_times.h"
#include "lex/code_view.h"
#include "rules/rule_set.h"
#include "targets/include_lists.h"

namespace ferry::migrate {
class FileMigration;
}
namespace ferry::analysis {
struct Wave64FixPlan;
}
namespace ferry::project {
enum class FileKind;
[[nodiscard]] bool is_c_family(FileKind k);
}  // namespace ferry::project

namespace ferry::targets {

// One option a target takes on the command line (`--NAME VALUE`, or `--NAME` for a flag).
struct OptionSpec {
  std::string_view name;  // "launch": the flag is --launch
  std::string_view help;
  std::string_view default_value;  // what option() returns when it is not given ("" for a flag)
  std::string_view choices;        // "chevron,ggl": the values allowed; "" allows any value
  bool flag = false;               // takes no value: given or not (flag())
};

// What the user asked of a migration. The generic part is typed; the target's own options are
// kept by name as given (checked and completed with defaults when the target is made).
struct Options {
  std::vector<std::string> user_rule_files;                // --rules FILE..., override built-in rows
  std::map<std::string, std::string, std::less<>> values;  // target options given: "launch" -> "ggl"
  // `--timings`: the CPU time of each phase (lexing, pre-passes, passes, rules) is added here.
  PhaseTimes* timings = nullptr;
};

// A source file as the project-wide pre-passes see it (Target::prepare_project).
struct SourceView {
  std::string path;  // relative to the project root
  // The text, when the caller holds it (one file: `ferry migrate FILE`); empty when `read` is set.
  std::string_view text;
  // A slot for the text's tokens, which the caller hands on to the file's migration afterwards
  // (migrate_buffer), so that a file is lexed once. The caller may fill it before the pre-passes
  // (one file); the pre-passes borrow a full one and give it back. A tree keeps the slots empty:
  // holding every file's tokens for pre-passes that read one file at a time would raise its peak
  // memory to the whole tree's tokens. Null: no slot.
  std::optional<lex::CodeView>* lexed = nullptr;
  // A tree: reads the text when a pre-pass needs it (the caller holds none), so that the
  // pre-passes hold one file's text at a time, not the whole tree's. Empty: `text` is the text.
  std::function<std::string()> read = {};
};

// The text of `f`: `text`, or read (SourceView::read) into `own`.
[[nodiscard]] std::string_view source_text(const SourceView& f, std::string& own);

struct ProjectContext;
class Target;

// One project pre-pass, run file by file (Target::prepare_project): `file` sees each source file
// once, in order, through the one lexed view all pre-passes share, and keeps a small summary of
// it; `finish` merges the summaries into the context once every file was seen. The view is
// dropped after the file (a pre-pass that needs a file's tokens again lexes it again).
class ProjectScan {
 public:
  virtual ~ProjectScan() = default;
  // Whether `file` needs the file's tokens (a cheap look at its text first): a file no scan wants
  // is not lexed. `text` is the whole text.
  [[nodiscard]] virtual bool wants(const SourceView& /*f*/, std::string_view /*text*/) const { return true; }
  // Each file some scan wants, in order (those this scan does not want too).
  virtual void file(const SourceView& f, const migrate::FileMigration& view, ProjectContext& ctx) = 0;
  // Called in the order the scans were given, after the last file. A scan lets go of what it kept
  // per file here: the scans after it finish while it still exists.
  virtual void finish(const std::vector<SourceView>& files, ProjectContext& ctx) = 0;
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
  // Every name some file of the project `#define`s (defined_macros_scan): a use of such a
  // name is the user's macro, which a call template must not rewrite.
  std::unordered_set<std::string> defined_macros;
  // Names a target's compat headers provide (hip: ferry/compat/) that the project defines itself
  // as functions (a shim `__device__ __half2 __hmax2(__half2 a, __half2 b) { ... }` under
  // `#ifdef __HIPCC__`): its own definition serves, the compat header is not included for them.
  std::unordered_set<std::string> user_compat_definitions;
  // The wave64 lane-math fixes planned over the whole project (analysis/wave64_fix.h), keyed by
  // SourceView::path; null when the target does not fix lane math.
  std::shared_ptr<const analysis::Wave64FixPlan> wave64_fixes;
  // One file migrated on its own (its path is not relative to a tree root): files a pass writes
  // for the whole tree (hip: ferry/compat/) go beside it.
  bool single_file = false;
  // The target that wrote the input tree, when it is Ferry's own output (its .ferry/manifest.json):
  // "hip" when HIP -> CUDA is the way back of a CUDA -> HIP migration, whose CUDA originals
  // compiled with the includes they had. Empty for anything else.
  std::string migrated_by;
  // Per source file (relative path), the headers it includes as written ("<cstdio>",
  // "\"util/common.h\""), so a pass can see what a file gets through its own headers. Filled by
  // includes_scan in the project_scans of the targets that read it (cuda, hip). Pooled
  // (include_lists.h): the same names recur in every file.
  IncludeLists includes;
  // The tree file that `#include "path"` in a file of folder `dir` ("src/", or "") names: beside
  // the file when `includes` knows it, else a tree file whose path ends with it (found through -I),
  // else the path beside the file.
  [[nodiscard]] std::string project_include(const std::string& dir, const std::string& path) const;
  // The hip target: per source file (relative path), the names its translation unit (the file and
  // the tree's headers it includes) declares with one of CUDA's integer handle types that HIP
  // makes a pointer: CUdeviceptr (hipDeviceptr_t, a void*), cudaTextureObject_t / CUtexObject
  // and cudaSurfaceObject_t / CUsurfObject (targets/hip/deviceptr_pass.cpp). Each name maps to
  // the HIP type of its handle. Translation units that declare nothing themselves and include the
  // same headers share one.
  struct IntegerHandleNames {
    std::unordered_map<std::string, std::string> values;    // `CUdeviceptr d`: d is one
    std::unordered_map<std::string, std::string> pointers;  // `CUdeviceptr *p`, `CUdeviceptr a[3]`: *p, p[i] are
    std::unordered_set<std::string> ambiguous;              // declared a handle and as something else too
  };
  std::unordered_map<std::string, std::shared_ptr<const IntegerHandleNames>> integer_handle_names;
  // The hip target: tree headers that stand in for cuda.h (relative path, normalised) and the
  // number of CUDA API names each declares (targets/hip/stand_in_pass.cpp).
  std::unordered_map<std::string, std::size_t> cuda_stand_ins;
  // Names of rules/cuda_api_names.tsv (hip_api_names.tsv for the cuda target) that a file of the tree declares itself
  // (an enumerator, typedef, struct/enum tag or alias, as a stand-in for cuda.h does): the user's, never reported as a
  // CUDA name with no rule (FRY1004).
  std::unordered_set<std::string> declared_api_names;
  // The cuda target: what the HIP sources tell the build-file migrators (wave64 selector macros,
  // nvcc flags the code needs; buildsys/source_facts.h). Empty on the way back of a CUDA -> HIP
  // migration (migrated_by "hip"): the CUDA originals built with the flags they had.
  buildsys::SourceFacts build_facts;
};

// Fills ctx.includes: the header names of each file's #include lines, as the lexer reads them.
[[nodiscard]] std::unique_ptr<ProjectScan> includes_scan();
// Fills ctx.defined_macros (every target's pre-passes run it first).
[[nodiscard]] std::unique_ptr<ProjectScan> defined_macros_scan();
// Runs `scans` over `files` in one sweep: each file's text is read once (held, or
// SourceView::read) and lexed once (or its `lexed` slot borrowed and given back), handed to every
// scan in order, and dropped before the next file; then each scan's finish, in order.
void run_project_scans(const std::vector<SourceView>& files, std::span<ProjectScan* const> scans, const Target& target,
                       ProjectContext& ctx);

class Target;

// Something the release a target writes for lacks (a name, or a member of one of its types), as
// `ferry verify` uses it to tell a known gap of the target from a migration defect (docs/verify.md).
struct KnownGap {
  std::string scope;  // a member's type, without namespace or template arguments; "" for a name
  std::string name;   // as the compiler quotes it: the name left in the output, or the member
  std::string why;    // "HIP 5.2 (rocm-5.2) lacks it; HIP has it from ROCm 6.0"
};

// A target as the registry knows it, before one is made: everything defined once, here.
struct TargetInfo {
  std::string_view name;            // "hip" (--to hip)
  std::string_view source_dialect;  // "cuda" (--from cuda)
  std::string_view summary;
  std::span<const OptionSpec> options;  // the target's own command-line options
  // Hardware profile (rules/profiles/profiles.tsv) the output is built for by default (build files'
  // --arch, verify) and the one the originals compile for; "" when no compiler Ferry drives applies
  // (Ascend, Python).
  std::string_view default_profile;
  std::string_view source_profile;
  std::unique_ptr<Target> (*make)(const Options& options);
};

// A name of the source dialect's API that no rule maps: its family ("driver") and where it comes
// from, for messages ("CUDA driver API, cuda.h").
struct UnmappedApiName {
  std::string family;
  std::string where;
};

class Target {
 public:
  // Checks `options.values` against info.options (unknown names, values outside the choices:
  // std::invalid_argument) and completes them with the defaults.
  Target(const TargetInfo& info, const Options& options);
  virtual ~Target() = default;
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;

  [[nodiscard]] const TargetInfo& info() const { return info_; }
  [[nodiscard]] std::string_view name() const { return info_.name; }                      // "hip"
  [[nodiscard]] std::string_view source_dialect() const { return info_.source_dialect; }  // "cuda"
  [[nodiscard]] std::string_view summary() const { return info_.summary; }
  // The value of one of the target's options (the default when not given). Asking for an option
  // the target does not declare is a programming error: std::logic_error.
  [[nodiscard]] const std::string& option(std::string_view name) const;
  [[nodiscard]] bool flag(std::string_view name) const { return !option(name).empty(); }
  // Every option's value, in declaration order (the rounds fingerprint).
  [[nodiscard]] std::vector<std::string_view> option_values() const;

  [[nodiscard]] virtual const rules::RuleSet& rules() const = 0;
  // The release the target writes code for, for messages ("HIP 5.2 (rocm-5.2)"); empty when the
  // target has no version model. Rules it lacks carry Availability::Missing or Compat.
  [[nodiscard]] virtual std::string release() const { return {}; }
  // Names and members the release lacks, from the rules' version model and the target's own
  // tables; empty for a target without a version model.
  [[nodiscard]] virtual std::vector<KnownGap> known_gaps() const { return {}; }
  // A name of the source dialect's API (declared by its own headers) that no rule maps
  // (targets/unmapped_names.h); nullptr for any other name. The generic rule pass reports such a
  // use (FRY1004) instead of leaving it silently.
  [[nodiscard]] virtual const UnmappedApiName* unmapped_api_name(std::string_view /*name*/) const { return nullptr; }
  // Which files of a tree this target rewrites (the others are copied): C-family sources by
  // default; the torch_npu target takes Python instead.
  [[nodiscard]] virtual bool migrates(project::FileKind kind) const { return project::is_c_family(kind); }
  // Build files (CMake, Makefiles, setup.py) the target converts; nullopt copies the file.
  [[nodiscard]] virtual std::optional<buildsys::Result> migrate_build_file(const std::string& /*rel*/,
                                                                           project::FileKind /*kind*/,
                                                                           std::string_view /*text*/,
                                                                           const buildsys::Options& /*o*/) const {
    return std::nullopt;
  }

  // Sees every source file before any is migrated: the project's defined macros and the target's
  // project_scans, in one sweep over the files (run_project_scans).
  void prepare_project(const std::vector<SourceView>& files, ProjectContext& ctx) const;
  // The target's project pre-passes, in the order their finish runs (ProjectScan).
  [[nodiscard]] virtual std::vector<std::unique_ptr<ProjectScan>> project_scans() const { return {}; }
  // Semantic passes; they run before the generic rule application and their edits win.
  virtual void run_passes(migrate::FileMigration& file) const = 0;
  // Runs after the rules (e.g. inserting a runtime header the file now needs).
  virtual void finish_file(migrate::FileMigration& /*file*/) const {}

 protected:
  // A target that resolves one of its options (a default found on the machine, a normalised
  // spelling) records the resolved value, so option_values() and the manifest show what was used.
  void set_option(std::string_view name, std::string value);

 private:
  const TargetInfo& info_;
  std::map<std::string, std::string, std::less<>> values_;  // every declared option, resolved
};

// The option `name` ("launch", no dashes in front) of the target, or nullptr when it takes none of
// that name. The one lookup of an option by name: the Target constructor, the error naming the
// targets that do take an option, and `ferry serve` reading a manifest of Ferry 0.x.
[[nodiscard]] const OptionSpec* find_option(const TargetInfo& info, std::string_view name);

// All registered targets, in registry order (`ferry targets`, the CLI's options, error messages).
[[nodiscard]] std::span<const TargetInfo* const> list_targets();
// The registered target `name`, or nullptr.
[[nodiscard]] const TargetInfo* find_target(std::string_view name);

// Builds target `name` (loading its built-in tables and the user's rule files). Throws
// std::invalid_argument for an unknown name, with the known names in the message, and for
// options the target does not take.
[[nodiscard]] std::unique_ptr<Target> make_target(std::string_view name, const Options& options);

}  // namespace ferry::targets
