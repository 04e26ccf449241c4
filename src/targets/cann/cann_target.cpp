#include "targets/cann/cann_target.h"

#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/cann/passes.h"

namespace ferry::targets {
namespace {

class CannTarget final : public Target {
 public:
  explicit CannTarget(const Options& options) {
    rules::load_builtin(rules_, "cuda2cann/");
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
  }

  std::string_view name() const override { return "cann"; }
  std::string_view source_dialect() const override { return "cuda"; }
  std::string_view summary() const override {
    return "CUDA → Ascend CANN: AscendCL runtime, HCCL, aclnn GEMM; kernels get Ascend C skeletons";
  }
  const rules::RuleSet& rules() const override { return rules_; }

  // Kernels first (they own the launch glue), then whole-statement GEMMs, then argument-level
  // rewrites; the rule tables rename what is left.
  void run_passes(migrate::FileMigration& file) const override {
    cann::kernel_pass(file);
    cann::gemm_pass(file);
    cann::hccl_pass(file);
    cann::runtime_pass(file);
    cann::entry_pass(file);
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

std::unique_ptr<Target> make_cann_target(const Options& options) { return std::make_unique<CannTarget>(options); }

}  // namespace ferry::targets
