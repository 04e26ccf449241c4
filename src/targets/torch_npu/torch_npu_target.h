// PyTorch scripts for CUDA → torch_npu (Ascend NPUs): rewrites Python tokens, never text
// (lex/python_lexer.h), and explains what has no NPU equivalent (docs/targets.md#torch_npu).
#pragma once

#include "migrate/file_migration.h"
#include "targets/target.h"

namespace ferry::targets::torch_npu {

extern const TargetInfo kTarget;

// The whole migration of one Python file: edits and diagnostics (FRY1650-FRY1651, FRY4650-FRY4654).
void migrate_python(migrate::FileMigration& file);

}  // namespace ferry::targets::torch_npu
