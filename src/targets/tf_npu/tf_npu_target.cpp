#include "targets/tf_npu/tf_npu_target.h"

#include "project/project.h"

namespace ferry::targets::tf_npu {
namespace {

constexpr OptionSpec kOptions[] = {
    // name, help, default, choices ("" = any value), flag
    {"tf-version", "TensorFlow release the scripts are written for (1.15, or 2 for TensorFlow 2.x)", "1.15", "1.15,2"},
};

class TfNpuTarget final : public Target {
 public:
  explicit TfNpuTarget(const Options& options) : Target(kTarget, options) {
    settings_.version = option("tf-version");
    settings_.major = settings_.version.rfind("2", 0) == 0 ? 2 : 1;
  }
  const rules::RuleSet& rules() const override { return rules_; }  // empty: the rules are its own tables
  std::string release() const override { return "TensorFlow " + settings_.version + " with npu_bridge"; }
  bool migrates(project::FileKind kind) const override { return kind == project::FileKind::Python; }
  void run_passes(migrate::FileMigration& file) const override { convert_python(file, settings_); }

 private:
  rules::RuleSet rules_;
  Settings settings_;
};

}  // namespace

// No profiles: Python scripts are not compiled.
const TargetInfo kTarget = {
    "tf_npu",
    "tensorflow",
    "TensorFlow 1.15/2.x → Ascend NPU through TensorFlow's NPU adapter (npu_bridge)",
    kOptions,
    "",
    "",
    [](const Options& options) -> std::unique_ptr<Target> { return std::make_unique<TfNpuTarget>(options); },
};

}  // namespace ferry::targets::tf_npu
