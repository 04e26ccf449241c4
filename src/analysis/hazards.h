// Portability hazards of CUDA code on a hardware target profile: 32-lane assumptions that break
// on 64-lane wavefronts (FRY22xx) and resource limits of the target (FRY32xx).
//
// Every check is one function over a FileMigration (the tokens, bracket matching and the
// diagnostics sink of one file) and the FileFacts computed once for that file: the function
// bodies, the compile-time constants (#define, constexpr/const) and a small flow-insensitive
// dataflow telling which local variables hold thread ids, lane ids or warp indices.
// `ferry analyze` runs them all (and may apply the provably safe fixes); the HIP target runs
// them as a diagnostics-only pass inside `ferry migrate`.
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

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/profile.h"
#include "migrate/file_migration.h"

namespace ferry::analysis {

// One `name = expr` definition in a function body (a declaration or a plain assignment) and
// the taint of its value (kinds of FunctionInfo's variable sets, as bits: 1 thread, 2 lane,
// 4 ballot). `name` points into the file's source.
struct VarDef {
  std::string_view name;
  std::size_t at = 0;  // code index of the '='
  unsigned taint = 0;
};

// One function definition: code indices of its name and of its body's braces.
struct FunctionInfo {
  std::string name;
  std::size_t name_ci = 0;
  std::size_t body_open = 0;   // '{'
  std::size_t body_close = 0;  // '}'
  bool is_kernel = false;      // declared __global__
  std::optional<long long> launch_bounds;  // first argument of __launch_bounds__, when constant
  std::size_t launch_bounds_ci = migrate::npos;
  // Dataflow over the body (flow-insensitive, to a fixpoint):
  //   thread_vars: hold a value computed from threadIdx / a lane id / blockDim, without blockIdx
  //                or gridDim (a global element index is data, not a lane);
  //   lane_vars:   hold a lane id or warp index (derived through & 31, % 32, >> 5, / 32, their
  //                warpSize forms, __lane_id() or a lane helper);
  //   ballot_vars: hold the result of __ballot*/__activemask.
  std::set<std::string> thread_vars;
  std::set<std::string> lane_vars;
  std::set<std::string> ballot_vars;
  std::map<std::string, long long> local_constants;  // const/constexpr locals with constant values
  std::vector<VarDef> defs;  // every definition in source order, as the fixpoint left them;
                             // empty when the file has no taint source (every taint is 0)
};

// A named compile-time constant of the file: `#define NAME expr` or `constexpr T NAME = expr;`.
struct ConstantInfo {
  std::string name;
  long long value = 0;
  std::size_t name_ci = 0;   // code index of NAME in its definition
  std::size_t first_ci = 0;  // first code index of the definition ('#' or the declaration start)
  std::size_t last_ci = 0;   // last code index of the definition (the value's end or ';')
  bool is_macro = false;
};

struct FileFacts {
  std::vector<FunctionInfo> functions;
  std::map<std::string, ConstantInfo> constants;  // file scope; a name defined twice with
                                                  // different values is left out
  std::set<std::string> lane_helpers;    // functions returning a lane id / warp index
  std::set<std::string> thread_helpers;  // functions returning a thread-derived value
  // Constants other files of the project define (a header's #define WARP_SIZE 32 seen from the
  // .cu that includes it); the file's own definitions win. Used for values, never reported.
  std::map<std::string, long long> project_constants;
  // Index into `functions` of the function whose body contains `ci`, or npos.
  [[nodiscard]] std::size_t function_at(std::size_t ci) const;
};

// Computes the facts of one file (no diagnostics). `project_constants`: see FileFacts.
[[nodiscard]] FileFacts collect_facts(const migrate::FileMigration& file,
                                      const std::map<std::string, long long>* project_constants = nullptr);

// Merges the file-scope constants of many files; a name with different values is left out.
void merge_project_constants(const FileFacts& facts, std::map<std::string, long long>& merged,
                             std::set<std::string>& conflicting);

// Evaluates the constant expression in code tokens [first, last]: integer literals, sizeof of
// builtin types, named constants, + - * / % << >> & | ^ ~ ! ?:, comparisons, parentheses, casts
// to integer types. nullopt when anything is unknown.
[[nodiscard]] std::optional<long long> eval_constant(const migrate::FileMigration& file,
                                                     const FileFacts& facts, std::size_t first,
                                                     std::size_t last,
                                                     const FunctionInfo* scope = nullptr);

// Uses of warp-width constants across the files analyzed together: a name is safe to rewrite
// (FRY2204 --fix) only when no file uses it in a role other than a warp width.
struct WarpConstantUses {
  std::set<std::string> other_use;  // names seen in a non-warp-width role somewhere
  std::map<std::string, std::string> other_use_where;  // name -> "file:line" of one such use
};
// Adds the uses found in `file` (call for every file before checking any when fixing a tree).
void record_warp_constant_uses(const migrate::FileMigration& file, const FileFacts& facts,
                               WarpConstantUses& uses);
// Names a file defines as warp-width constants (FRY2204 candidates).
[[nodiscard]] std::vector<std::string> warp_constant_names(const migrate::FileMigration& file,
                                                           const FileFacts& facts);

struct HazardOptions {
  const Profile* profile = nullptr;  // required
  bool apply_fixes = false;          // propose the provably safe edits on the file
  // With apply_fixes: uses across the analyzed files; null means "this file only".
  const WarpConstantUses* warp_uses = nullptr;
  // FRY2206-FRY2208 look at warp intrinsic calls. Inside `ferry migrate --to hip` the target's
  // warp-intrinsics pass rewrites those calls to 64-bit forms and reports what it cannot (its
  // FRY21xx codes), so the migrate pass turns these off to avoid reporting a line twice.
  bool intrinsic_checks = true;
};

// One function per hazard family. Each adds diagnostics (and, with apply_fixes, edits) to `file`.
void check_lane_arithmetic(migrate::FileMigration& file, const FileFacts& facts,
                           const HazardOptions& opt);  // FRY2201 FRY2202 FRY2203
void check_warp_constants(migrate::FileMigration& file, const FileFacts& facts,
                          const HazardOptions& opt);  // FRY2204 (+fix)
void check_shuffle_loops(migrate::FileMigration& file, const FileFacts& facts,
                         const HazardOptions& opt);  // FRY2205 (+fix)
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

// The codes of the hazard checks: the FRY22xx and FRY32xx rows of core/diagnostics.def.
[[nodiscard]] bool is_hazard_code(Diag code);
// Every code this module reports, in table order, with its one-line title (summaries, JSON).
[[nodiscard]] const std::vector<DiagInfo>& hazard_codes();

// True when the wave64 checks (FRY22xx) apply to the profile (wavefronts wider than 32 lanes).
[[nodiscard]] bool wave64_checks_apply(const Profile& profile);

// Runs every check that applies to the profile.
void check_all(migrate::FileMigration& file, const HazardOptions& opt,
               const std::map<std::string, long long>* project_constants = nullptr);

// The diagnostics-only pass `ferry migrate --to hip` runs: the checks for gfx906 (all AMD
// profiles share wave64 and 64 KiB of LDS) except the intrinsic ones, no edits.
void hazard_pass(migrate::FileMigration& file);

}  // namespace ferry::analysis
