// Portability hazards of CUDA code on a hardware target profile: 32-lane assumptions that break
// on 64-lane wavefronts (FRY22xx) and resource limits of the target (FRY32xx).
//
// Every check is one function in its own file under checks/ (checks/checks.h), over a
// FileMigration (the tokens, bracket matching and the diagnostics sink of one file) and the
// FileFacts computed once for that file (facts.h): the function bodies, the compile-time
// constants (#define, constexpr/const; const_eval.h) and a small flow-insensitive dataflow
// telling which local variables hold thread ids, lane ids or warp indices (taint.h).
// `ferry analyze` runs them all; the HIP target runs them as a diagnostics-only pass inside
// `ferry migrate`. The checks only report: fixes are the wave64 planner's (wave64_fix.h).
//
// Codes (docs/diagnostics.md, "Wave64 and resource hazards (analyze)"):
//   FRY2201  lane id computed for 32 lanes: `tid & 31`, `tid % 32` on a thread-derived value
//   FRY2202  warp index/count computed for 32 lanes: `tid >> 5`, `tid / 32`, `blockDim.x / 32`
//   FRY2203  lane bit in a 32-bit word: `1u << lane` (undefined for lanes 32..63)
//   FRY2204  warp-width constant fixed at 32: `#define WARP_SIZE 32`, `constexpr int kWarpSize = 32`
//   FRY2205  shuffle reduction over 32 lanes: a loop from 16 (or up to 32) around __shfl_*
//   FRY2206  32-bit full mask (0xffffffff) passed to a warp function
//   FRY2207  ballot/activemask result stored in a 32-bit integer
//   FRY2208  ballot/activemask result counted or scanned with 32-bit __popc/__ffs/__clz
//   FRY2209  __shared__ array sized for 32-lane warps, indexed by a lane id or warp index
//   FRY3201  static __shared__ memory of a kernel above the profile's LDS per block
//   FRY3202  __launch_bounds__ above the profile's threads per block
//   FRY3203  launch block size (literal or dim3 of constants) above threads per block
//   FRY3204  dynamic shared memory request above the most a block can get
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/checks/checks.h"
#include "analysis/const_eval.h"
#include "analysis/facts.h"
#include "analysis/profile.h"
#include "migrate/file_migration.h"

namespace ferry::analysis {

// One row of the check table: what runs, when, and what it reports.
struct Check {
  std::string_view name;   // "shuffle-loops": the file checks/shuffle_loops.cpp
  std::string_view codes;  // "FRY2205"
  bool wave64 = false;     // only for profiles with wavefronts wider than 32 lanes
  bool intrinsic = false;  // reads warp intrinsic calls: off inside migrate --to hip
  void (*run)(migrate::FileMigration& file, const FileFacts& facts, const HazardOptions& opt);
};
// Every check, in the order check_all runs them.
[[nodiscard]] std::span<const Check> check_table();

// The codes of the hazard checks: the FRY22xx and FRY32xx rows of core/diagnostics.def.
[[nodiscard]] bool is_hazard_code(Diag code);
// Every code this module reports, in table order, with its one-line title (summaries, JSON).
[[nodiscard]] const std::vector<DiagInfo>& hazard_codes();

// True when the wave64 checks (FRY22xx) apply to the profile (wavefronts wider than 32 lanes).
[[nodiscard]] bool wave64_checks_apply(const Profile& profile);

// Runs every check that applies to the profile.
void check_all(migrate::FileMigration& file, const HazardOptions& opt,
               const std::map<std::string, long long>* project_constants = nullptr);
// The same with the file's facts already computed (collect_facts).
void check_all(migrate::FileMigration& file, const HazardOptions& opt, const FileFacts& facts);

// The diagnostics-only pass `ferry migrate --to hip` runs: the checks for gfx906 (all AMD
// profiles share wave64 and 64 KiB of LDS) except the intrinsic ones, no edits.
// With the file's wave64 fix plan (null: none), fixed hazards are notes and the others say why.
struct Wave64FilePlan;
// `facts`: the file's collect_facts(file) when the caller has them (else computed here).
void hazard_pass(migrate::FileMigration& file, const Wave64FilePlan* fixes = nullptr, const FileFacts* facts = nullptr);

}  // namespace ferry::analysis
