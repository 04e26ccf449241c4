#include "targets/torch_npu/torch_npu_target.h"

#include "project/project.h"

namespace ferry::targets::torch_npu {
namespace {

// The mappings are code (npu_pass.cpp), not a rule table: the table format describes C names,
// and every Python rewrite here depends on its token context (device strings, method calls).
class TorchNpuTarget final : public Target {
 public:
  explicit TorchNpuTarget(const Options& options) : Target(kTarget, options) {}
  const rules::RuleSet& rules() const override { return rules_; }  // empty: nothing generic applies
  bool migrates(project::FileKind kind) const override { return kind == project::FileKind::Python; }
  void run_passes(migrate::FileMigration& file) const override { migrate_python(file); }

 private:
  rules::RuleSet rules_;
};

}  // namespace

// No profiles: Python scripts are not compiled.
const TargetInfo kTarget = {
    "torch_npu",
    "pytorch-cuda",
    "PyTorch on CUDA → PyTorch on Ascend NPUs (torch_npu): Python scripts",
    {},
    "",
    "",
    [](const Options& options) -> std::unique_ptr<Target> { return std::make_unique<TorchNpuTarget>(options); },
};

}  // namespace ferry::targets::torch_npu
