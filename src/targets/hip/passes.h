// Semantic passes of the CUDA → HIP target. Each pass is one function over a FileMigration,
// lives in its own file and has golden tests under tests/golden/hip-<pass>-*/.
// Order (HipTarget::run_passes): runtime_header, hip_provided, name_clash, solver_args, warp_intrinsics, launch,
// inline_asm; edits of an earlier pass win over later ones and over the rule tables.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "migrate/file_migration.h"
#include "targets/hip/hip_provided.h"

namespace ferry::targets::hip {

// Inline PTX (`asm(...)`, `asm volatile(...)`, `__asm__`) has no AMDGPU meaning: FRY1003.
void inline_asm_pass(migrate::FileMigration& file);

// Files that use the CUDA kernel language or runtime but never include a runtime header (nvcc
// includes it implicitly; hipcc does not) get `#include <hip/hip_runtime.h>`; a HIP header that
// needs the runtime first (hip_cooperative_groups.h, hip_fp16.h...) gets it moved above it.
// Runs before the rules, so the include line it moves is its own.
void runtime_header_pass(migrate::FileMigration& file);

// CUDA 9 warp intrinsics (__shfl*_sync, __ballot_sync, __any/__all_sync, __activemask,
// __syncwarp, __match_*, __reduce_*_sync) → HIP 5.2 forms that are right on 64-lane wavefronts;
// FRY2101 (mask not full), FRY2102 (ballot in 32 bits), FRY2103 (32-bit bit function of a
// ballot), FRY1101/FRY1102 (__match_*/__reduce_* unsupported).
void warp_intrinsics_pass(migrate::FileMigration& file);

// For a release where warpSize is a runtime value (ROCm 7.0 on): FRY2301 at each use of warpSize
// where C++ needs a constant (array bound, template argument, constexpr, static_assert, case,
// enum, __launch_bounds__). Does nothing when `warp_size_constexpr`.
void warp_size_pass(migrate::FileMigration& file, bool warp_size_constexpr);

// Under --launch=ggl: `k<<<g, b, shm, s>>>(args)` → `hipLaunchKernelGGL(k, g, b, shm, s, args)`.
void launch_pass(migrate::FileMigration& file);

// cuBLAS enumerators (CUBLAS_FILL_MODE_*, CUBLAS_OP_*, CUBLAS_SIDE_*) and enum types in the
// arguments of a cusolverDn*/cusolverSp* call → hipSOLVER's HIPSOLVER_* names (the rule tables make
// them HIPBLAS_* everywhere else); FRY4102 for a variable of a cuBLAS enum type passed to one.
void solver_args_pass(migrate::FileMigration& file);

// User definitions whose signature HIP's headers already define (rules/hip_provided.tsv):
// wrapped in `#if !defined(__HIP_PLATFORM_AMD__)` ... `#endif`, FRY4103 at each.
void hip_provided_pass(migrate::FileMigration& file, const HipProvidedTable& table);

// Renames user declarations that clash with HIP names (ProjectContext::clash_renames), and
// their uses: FRY4101 at each declaration.
void name_clash_pass(migrate::FileMigration& file);

// The names HIP 5.2's runtime header defines that CUDA code may define (embedded
// rules/hip_reserved_names.tsv).
[[nodiscard]] std::unordered_set<std::string> load_reserved_names();

// Every identifier the rule tables know on either side: forward `from` names and the names
// (or called names of call templates) they map to, and the rules/hip2cuda rows. Such a name is
// never a user clash (collect_name_clashes).
[[nodiscard]] std::unordered_set<std::string> load_api_names(const rules::RuleSet& forward);

// The project-wide half of name_clash_pass: finds the user's declarations of `reserved` names
// in `files` and fills ctx.clash_renames / ctx.clash_origins. A name with a definition that
// hip_provided_pass guards (`provided`) is not renamed: HIP's definition serves its uses.
void collect_name_clashes(const std::unordered_set<std::string>& reserved,
                          const std::unordered_set<std::string>& api_names,
                          const HipProvidedTable& provided, const rules::RuleSet& rules,
                          const std::vector<SourceView>& files, ProjectContext& ctx);

}  // namespace ferry::targets::hip
