#include "targets/cann/cann_target.h"

#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/cann/passes.h"

namespace ferry::targets::cann {
namespace {

class CannTarget final : public Target {
 public:
  explicit CannTarget(const Options& options) : Target(kTarget, options) {
    rules::load_builtin(rules_, "cuda2cann/");
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
  }

  const rules::RuleSet& rules() const override { return rules_; }

  // Kernels first (they own the launch glue), then whole-statement GEMMs, then argument-level
  // rewrites; the rule tables rename what is left.
  void run_passes(migrate::FileMigration& file) const override {
    kernel_pass(file);
    gemm_pass(file);
    hccl_pass(file);
    runtime_pass(file);
    entry_pass(file);
  }

  // nvcc includes the CUDA runtime implicitly; a file now calling aclrt* needs acl/acl.h.
  void finish_file(migrate::FileMigration& file) const override {
    const auto& conv = file.stats().converted_by_family;
    const auto it = conv.find("runtime");
    if (it == conv.end() || it->second == 0) return;
    std::size_t first_include = migrate::npos;
    for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
      if (file.code(ci).kind == lex::Kind::HeaderName) {
        const std::string_view h = file.text(ci);
        if (h.find("acl/acl.h") != std::string_view::npos || h.find("cuda_runtime") != std::string_view::npos ||
            h.find("cuda.h") != std::string_view::npos)
          return;
      }
      if (first_include == migrate::npos && file.is(ci, "#") && file.is(ci + 1, "include")) first_include = ci;
    }
    if (file.code_size() == 0) return;
    file.insert_before(first_include == migrate::npos ? 0 : first_include, "#include <acl/acl.h>\n");
  }

 private:
  rules::RuleSet rules_;
};

}  // namespace

// No default profile: Ascend code is built with the CANN toolchain, which verify does not drive.
const TargetInfo kTarget = {
    "cann",
    "cuda",
    "CUDA → Ascend CANN: AscendCL, HCCL, aclnn GEMM; kernels get Ascend C skeletons",
    {},
    "",
    "sm_90",
    [](const Options& options) -> std::unique_ptr<Target> { return std::make_unique<CannTarget>(options); },
};

}  // namespace ferry::targets::cann
