#include "targets/hip/hip_target.h"

#include <array>
#include <string>
#include <unordered_set>

#include "analysis/hazards.h"
#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/hip/compat.h"
#include "targets/hip/passes.h"
#include "targets/hip/toolchain.h"

namespace ferry::targets {
namespace {

class HipTarget final : public Target {
 public:
  explicit HipTarget(const Options& options)
      : options_(options), toolchain_(hip::resolve_toolchain(options.hip_version)) {
    std::vector<std::string_view> skip = {"cuda2hip/alt-"};
    if (options.blas == "rocblas") skip.push_back("cuda2hip/cublas.tsv");
    if (options.sparse == "rocsparse") skip.push_back("cuda2hip/cusparse.tsv");
    rules::load_builtin(rules_, "cuda2hip/", skip);
    if (options.blas == "rocblas") rules::load_builtin(rules_, "cuda2hip/alt-rocblas/");
    if (options.sparse == "rocsparse") rules::load_builtin(rules_, "cuda2hip/alt-rocsparse/");
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
    hip::apply_toolchain(rules_, toolchain_, options.blas, options.sparse);
    reserved_ = hip::load_reserved_names();
    provided_ = hip::load_hip_provided();
    api_names_ = hip::load_api_names(rules_);
  }

  std::string_view name() const override { return "hip"; }
  std::string_view source_dialect() const override { return "cuda"; }
  std::string_view summary() const override {
    return "CUDA → HIP for ROCm: AMD GPUs and Hygon DCU (wave64)";
  }
  const rules::RuleSet& rules() const override { return rules_; }
  std::string release() const override { return toolchain_.label(); }

  void prepare_project(const std::vector<SourceView>& files, ProjectContext& ctx) const override {
    hip::collect_name_clashes(reserved_, api_names_, provided_, rules_, files, ctx);
    if (options_.wave64_fix) hip::collect_wave64_fixes(files, *this, options_, ctx);
  }
  // The clash renames go first: they own the user's tokens. The warp pass then rewrites the
  // intrinsics (its output is never renamed), the launch pass the <<<>>> glue.
  void run_passes(migrate::FileMigration& file) const override {
    // The lane-math fixes own their tokens (numbers, type words): nothing else rewrites those.
    const analysis::Wave64FilePlan* fixes = hip::wave64_fix_pass(file);
    // Then: it may move a runtime include up, and must claim that line before the renamer.
    hip::runtime_header_pass(file);
    hip::hip_provided_pass(file, provided_);  // before the renamer: it never renames these names
    hip::compat_header_pass(file);  // includes of CUDA headers the release lacks: Ferry's compat header
    hip::cuda_compat_pass(file);  // Ferry's own compat constructs, before anything renames them
    hip::cuda_record_pass(file);  // before the rules rewrite the includes it records
    hip::name_clash_pass(file);
    hip::solver_args_pass(file);  // CUBLAS_* in cuSOLVER calls: HIPSOLVER_*, not HIPBLAS_*
    hip::data_types_pass(file, toolchain_, rules_);  // CUDA_R_32F in library calls: the library's own type
    hip::warp_intrinsics_pass(file);
    hip::call_args_pass(file);  // after the warp pass: CUDA 13 memory locations, __ffs(64-bit)
    hip::launch_pass(file);
    hip::inline_asm_pass(file);
    hip::warp_size_pass(file, toolchain_.warp_size_constexpr);  // ROCm 7: warpSize is not a constant
    hip::dialect_pass(file);  // nvcc-isms clang's C++17 rejects (register)
    hip::strings_pass(file);  // --rewrite-strings: API names in messages
    analysis::hazard_pass(file, fixes);  // wave64 and LDS/thread hazards for gfx906 (fixed ones as notes)
    if (fixes) hip::mark_widened_ballots(file, *fixes);
  }
  void finish_file(migrate::FileMigration& file) const override { hip::compat_finish(file); }

 private:
  Options options_;
  hip::Toolchain toolchain_;
  rules::RuleSet rules_;
  std::unordered_set<std::string> reserved_;
  hip::HipProvidedTable provided_;
  std::unordered_set<std::string> api_names_;  // never user clashes (hip::load_api_names)
};

}  // namespace

std::unique_ptr<Target> make_hip_target(const Options& options) {
  if (options.blas != "hipblas" && options.blas != "rocblas")
    throw std::invalid_argument("--blas must be hipblas or rocblas, not '" + options.blas + "'");
  if (options.sparse != "hipsparse" && options.sparse != "rocsparse")
    throw std::invalid_argument("--sparse must be hipsparse or rocsparse, not '" + options.sparse + "'");
  if (options.launch != "chevron" && options.launch != "ggl")
    throw std::invalid_argument("--launch must be chevron or ggl, not '" + options.launch + "'");
  return std::make_unique<HipTarget>(options);
}

}  // namespace ferry::targets
