// PyTorch → MindSpore 2.x (docs/targets.md#mindspore): Python parsed by tree-sitter (pyparse/),
// the mapping as data (rules/torch2mindspore/, checked against rules/mindspore/api.tsv), the
// structural conversions (classes, training step, data, devices, checkpoints) as code (convert.cpp).
#pragma once

#include <string>

#include "migrate/file_migration.h"
#include "targets/target.h"

namespace ferry::targets::mindspore {

extern const TargetInfo kTarget;

// What the options resolve to.
struct Settings {
  std::string version = "2.5";           // --mindspore-version
  int minor = 5;                         // 2.<minor>
  std::string device_target = "Ascend";  // --device-target
};

// The whole conversion of one Python file: edits and diagnostics (FRY1701-FRY1706, FRY4701-FRY4704).
void convert_python(migrate::FileMigration& file, const Settings& settings);

}  // namespace ferry::targets::mindspore
