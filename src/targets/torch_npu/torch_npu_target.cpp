#include "targets/torch_npu/torch_npu_target.h"

#include "project/project.h"

namespace ferry::targets {
namespace {

// The mappings are code (npu_pass.cpp), not a rule table: the table format describes C names,
// and every Python rewrite here depends on its token context (device strings, method calls).
class TorchNpuTarget final : public Target {
 public:
  explicit TorchNpuTarget(const Options& /*options*/) {}
  std::string_view name() const override { return "torch_npu"; }
  std::string_view source_dialect() const override { return "pytorch-cuda"; }
  std::string_view summary() const override {
    return "PyTorch on CUDA → PyTorch on Ascend NPUs (torch_npu): Python scripts";
  }
  const rules::RuleSet& rules() const override { return rules_; }  // empty: nothing generic applies
  bool migrates(project::FileKind kind) const override { return kind == project::FileKind::Python; }
  void run_passes(migrate::FileMigration& file) const override { torch_npu::migrate_python(file); }

 private:
  rules::RuleSet rules_;
};

}  // namespace

std::unique_ptr<Target> make_torch_npu_target(const Options& options) {
  return std::make_unique<TorchNpuTarget>(options);
}

}  // namespace ferry::targets
