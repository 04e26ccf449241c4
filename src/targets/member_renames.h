// rules/member_renames.tsv: struct members that CUDA and HIP spell otherwise
// (CUmemAllocationProp::requestedHandleTypes / hipMemAllocationProp::requestedHandleType), and
// member paths that HIP releases before one release spell otherwise (allocFlags.compressionType /
// HIP 5.2's compressionType). The name tables never rename a member; this renames the table's
// members where the token is a member access or a designated initializer (`p.X`, `p->X`,
// `{.X = ...}`; a dotted path only as a member access).
#pragma once

#include "migrate/file_migration.h"
#include "rules/version.h"

namespace ferry::targets {

// to_hip: CUDA's name -> HIP's, for the target release `hip` (unknown: the newest, so rows that
// only apply before a release are skipped); otherwise HIP's -> CUDA's, every row. Counts "driver".
void rename_members(migrate::FileMigration& file, bool to_hip, rules::Version hip = {});

}  // namespace ferry::targets
