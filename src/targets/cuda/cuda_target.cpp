#include "targets/cuda/cuda_target.h"

#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/cuda/passes.h"
#include "targets/cuda/reverse_rules.h"

namespace ferry::targets {
namespace {

class CudaTarget final : public Target {
 public:
  explicit CudaTarget(const Options& options) {
    cuda::build_reverse_rules(rules_);
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
  }

  std::string_view name() const override { return "cuda"; }
  std::string_view source_dialect() const override { return "hip"; }
  std::string_view summary() const override {
    return "HIP → CUDA for NVIDIA GPUs (derived from the CUDA → HIP tables)";
  }
  const rules::RuleSet& rules() const override { return rules_; }

  void run_passes(migrate::FileMigration& file) const override {
    cuda::syncwarp_pass(file);
    cuda::launch_pass(file);
    cuda::ballot_pass(file);
    cuda::amd_only_pass(file);
  }
  void finish_file(migrate::FileMigration& file) const override { cuda::runtime_header_pass(file); }

 private:
  rules::RuleSet rules_;
};

}  // namespace

std::unique_ptr<Target> make_cuda_target(const Options& options) {
  return std::make_unique<CudaTarget>(options);
}

}  // namespace ferry::targets
