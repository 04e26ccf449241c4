#include "targets/mindspore/mindspore_target.h"

#include <stdexcept>

#include "project/project.h"

namespace ferry::targets::mindspore {
namespace {

constexpr OptionSpec kOptions[] = {
    // name, help, default, choices ("" = any value), flag
    {"mindspore-version", "MindSpore release the output is written for (2.0 ... 2.7)", "2.5",
     "2.0,2.1,2.2,2.3,2.4,2.5,2.6,2.7"},
    {"device-target", "device the converted scripts set in their context", "Ascend", "Ascend,GPU,CPU"},
};

class MindSporeTarget final : public Target {
 public:
  explicit MindSporeTarget(const Options& options) : Target(kTarget, options) {
    settings_.version = option("mindspore-version");
    settings_.minor = std::stoi(settings_.version.substr(settings_.version.find('.') + 1));
    settings_.device_target = option("device-target");
  }
  const rules::RuleSet& rules() const override { return rules_; }  // empty: the mapping is its own table
  std::string release() const override { return "MindSpore " + settings_.version; }
  bool migrates(project::FileKind kind) const override { return kind == project::FileKind::Python; }
  void run_passes(migrate::FileMigration& file) const override { convert_python(file, settings_); }

 private:
  rules::RuleSet rules_;
  Settings settings_;
};

}  // namespace

// No profiles: Python scripts are not compiled.
const TargetInfo kTarget = {
    "mindspore",
    "pytorch",
    "PyTorch → MindSpore 2.x: Python scripts and packages",
    kOptions,
    "",
    "",
    [](const Options& options) -> std::unique_ptr<Target> { return std::make_unique<MindSporeTarget>(options); },
};

}  // namespace ferry::targets::mindspore
