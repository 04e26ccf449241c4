#include "targets/cuda/cuda_target.h"

#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/cuda/passes.h"
#include "targets/cuda/reverse_rules.h"

namespace ferry::targets::cuda {
namespace {

class CudaTarget final : public Target {
 public:
  explicit CudaTarget(const Options& options) : Target(kTarget, options) {
    build_reverse_rules(rules_);
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
  }

  const rules::RuleSet& rules() const override { return rules_; }

  void run_passes(migrate::FileMigration& file) const override {
    syncwarp_pass(file);
    launch_pass(file);
    ballot_pass(file);
    amd_only_pass(file);
  }
  void finish_file(migrate::FileMigration& file) const override { runtime_header_pass(file); }

 private:
  rules::RuleSet rules_;
};

}  // namespace

const TargetInfo kTarget = {
    "cuda", "hip", "HIP → CUDA for NVIDIA GPUs (derived from the CUDA → HIP tables)", {}, "sm_90", "gfx90a",
    [](const Options& options) -> std::unique_ptr<Target> { return std::make_unique<CudaTarget>(options); },
};

}  // namespace ferry::targets::cuda
