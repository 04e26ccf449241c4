// The hazard checks, one file each in this folder (checks/<name>.cpp), and the options they
// share. Each check adds diagnostics to a FileMigration from the file's FileFacts; it never
// edits: the fixes are the wave64 planner's (analysis/wave64_fix.h), which `analyze --fix`,
// `migrate --to hip` and the workbench's apply-fix all use, and whose decisions reach the checks
// through HazardOptions (fixed sites become notes, unfixed ones say why). They run in the order
// of the table in analysis/hazards.cpp (check_table()).
//
// Adding a check: write checks/<name>.cpp with `void check_<name>(FileMigration&, const
// FileFacts&, const HazardOptions&)`, declare it below, add its row to the table in hazards.cpp,
// its codes to core/diagnostics.def and docs/diagnostics.md, and its tests to
// tests/unit/hazards_test.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/facts.h"
#include "analysis/profile.h"
#include "migrate/file_migration.h"

namespace ferry::analysis {

// Uses of warp-width constants across the files analyzed together: a name is safe to rewrite
// (FRY2204, the planner's constant sites) only when no file uses it in a role other than a warp width.
struct WarpConstantUses {
  std::set<std::string> other_use;                     // names seen in a non-warp-width role somewhere
  std::map<std::string, std::string> other_use_where;  // name -> "file:line" of one such use
  // name -> file path -> "file:line" of the first such use in that file
  std::map<std::string, std::map<std::string, std::string>> other_use_in;
};
// Adds the uses found in `file` (call for every file before checking any when fixing a tree).
void record_warp_constant_uses(const migrate::FileMigration& file, const FileFacts& facts, WarpConstantUses& uses);
// Names a file defines as warp-width constants (FRY2204 candidates).
[[nodiscard]] std::vector<std::string> warp_constant_names(const migrate::FileMigration& file, const FileFacts& facts);

struct HazardOptions {
  const Profile* profile = nullptr;  // required
  // Uses of warp-width constants across the analyzed files (the FRY2204 hint says whether the
  // constant is used otherwise); null means "this file only".
  const WarpConstantUses* warp_uses = nullptr;
  // FRY2206-FRY2208 look at warp intrinsic calls. Inside `ferry migrate --to hip` the target's
  // warp-intrinsics pass rewrites those calls to 64-bit forms and reports what it cannot (its
  // FRY21xx codes), so the migrate pass turns these off to avoid reporting a line twice.
  bool intrinsic_checks = true;
  // Hazards the wave64 fixer repaired (analysis/wave64_fix.h): (code, byte offset of the token a
  // check reports at). Those are reported as notes saying so.
  const std::set<std::pair<Diag, std::uint32_t>>* fixed_sites = nullptr;
  // false: those sites were only planned (analyze without --fix): the hint says they can be fixed.
  bool fixed_sites_applied = true;
  // Hazards it left, with why: the hint says so instead of the generic one.
  const std::map<std::pair<Diag, std::uint32_t>, std::string>* unfixed_reasons = nullptr;
  // Lane math no warp operation reaches (the fixer's finding): reported as notes.
  const std::set<std::pair<Diag, std::uint32_t>>* harmless_sites = nullptr;
  // Of the fixed sites, those fixed another way than the warpSize form (logical 32-lane warps),
  // with what was done: that text is the hint.
  const std::map<std::pair<Diag, std::uint32_t>, std::string>* fixed_how = nullptr;
};

// One function per hazard family. Each adds diagnostics to `file`.
void check_lane_arithmetic(migrate::FileMigration& file, const FileFacts& facts,
                           const HazardOptions& opt);  // FRY2201 FRY2202 FRY2203
void check_warp_constants(migrate::FileMigration& file, const FileFacts& facts,
                          const HazardOptions& opt);  // FRY2204
void check_shuffle_loops(migrate::FileMigration& file, const FileFacts& facts,
                         const HazardOptions& opt);  // FRY2205
void check_unrolled_shuffles(migrate::FileMigration& file, const FileFacts& facts,
                             const HazardOptions& opt);  // FRY2205 (unrolled steps at offset 16;
                                                         // run by check_shuffle_loops)
void check_full_masks(migrate::FileMigration& file, const FileFacts& facts,
                      const HazardOptions& opt);  // FRY2206
void check_ballot_width(migrate::FileMigration& file, const FileFacts& facts,
                        const HazardOptions& opt);  // FRY2207 FRY2208
void check_per_warp_shared(migrate::FileMigration& file, const FileFacts& facts,
                           const HazardOptions& opt);  // FRY2209
void check_static_lds(migrate::FileMigration& file, const FileFacts& facts,
                      const HazardOptions& opt);  // FRY3201
void check_block_size(migrate::FileMigration& file, const FileFacts& facts,
                      const HazardOptions& opt);  // FRY3202 FRY3203
void check_dynamic_lds(migrate::FileMigration& file, const FileFacts& facts,
                       const HazardOptions& opt);  // FRY3204

}  // namespace ferry::analysis
