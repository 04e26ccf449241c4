// Semantic passes of the CUDA → HIP target. Each pass is one function over a FileMigration,
// lives in its own file and has golden tests under tests/golden/hip-<pass>-*/.
#pragma once

#include <vector>

#include "migrate/file_migration.h"

namespace ferry::targets::hip {

// Inline PTX (`asm(...)`, `asm volatile(...)`, `__asm__`) has no AMDGPU meaning: FRY1003.
void inline_asm_pass(migrate::FileMigration& file);

// Files that use the CUDA kernel language or runtime but never include a runtime header (nvcc
// includes it implicitly; hipcc does not) get `#include <hip/hip_runtime.h>`.
void runtime_header_pass(migrate::FileMigration& file);

}  // namespace ferry::targets::hip
