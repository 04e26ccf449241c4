// rules/member_renames.tsv: struct members that CUDA and HIP spell otherwise
// (CUmemAllocationProp::requestedHandleTypes / hipMemAllocationProp::requestedHandleType).
// The name tables never rename a member; this renames the table's members where the token is a
// member access or a designated initializer (`p.X`, `p->X`, `{.X = ...}`).
#pragma once

#include "migrate/file_migration.h"

namespace ferry::targets {

// to_hip: CUDA's name -> HIP's; otherwise HIP's -> CUDA's. Counts "driver".
void rename_members(migrate::FileMigration& file, bool to_hip);

}  // namespace ferry::targets
