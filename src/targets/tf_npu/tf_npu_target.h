// TensorFlow 1.15 / 2.x → TensorFlow's NPU adapter, npu_bridge (docs/targets.md#tf_npu): Python
// parsed by tree-sitter (pyparse/), the rules of Ascend's TensorFlow migration tool as data
// (rules/tf2npu/, checked against rules/tf_npu/api.tsv, generated from the adapter's source).
#pragma once

#include <string>

#include "migrate/file_migration.h"
#include "targets/target.h"

namespace ferry::targets::tf_npu {

extern const TargetInfo kTarget;

struct Settings {
  std::string version = "1.15";  // --tf-version
  int major = 1;
};

// The whole conversion of one Python file: edits, diagnostics (FRY1720, FRY1721, FRY4720, FRY4721)
// and the file's worklist (success / failed / needs_manual).
void convert_python(migrate::FileMigration& file, const Settings& settings);

}  // namespace ferry::targets::tf_npu
