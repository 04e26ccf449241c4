// The wave64 fixer: rewrites 32-lane assumptions (FRY2201-FRY2209) into warp-size-generic code,
// all together or not at all for each group of code that shares them.
//
// Why all together: code written for 32-lane warps is usually consistent with itself — lane ids
// from `& 31`, warp indices from `>> 5`, reductions from offset 16, one slot per 32 lanes — and so
// it often still computes the right thing on a 64-lane wavefront (each half reduces separately).
// Fixing only some of those (a reduction now spanning 64 lanes, the lane id still `& 31`) is what
// breaks it. So the fixer works on *components*: functions that use warp operations, the
// functions they call and that call them, the host functions that launch them, and the warp-width
// constants they share, across the files of the project. A component is fixed only when every
// 32-lane assumption in it is one the fixer understands; otherwise nothing in it changes and each
// hazard keeps its diagnostic, with the reason in the hint.
//
// What "understands" means, per value role (the dataflow of analysis/hazards.h):
//   lane id      `t & 31`, `t % 32` (t from threadIdx)     -> `t & (warpSize - 1)`, `t % warpSize`
//   warp index   `t >> 5`, `t / 32`, `(n + 31) / 32`       -> `t / warpSize`, `(n + warpSize - 1) / warpSize`
//   warp width   WARP_SIZE-like constants                  -> 64 under __HIP_PLATFORM_AMD__ (FRY2204)
//                strides `i += 32` of lane loops, `warp * 32`, first warp `tid < 32`, shuffle
//                widths and last-lane sources              -> warpSize, warpSize - 1
//   reductions   loops from 16 around xor/down shuffles    -> from warpSize / 2 (FRY2205);
//                an unrolled first step at offset 16       -> a loop over warpSize/2 .. 16
//   lane masks   `1u << lane`, ballots kept in 32 bits     -> 64-bit types, __popcll/__ffsll
//                (FRY2203, FRY2207/FRY2102, FRY2208/FRY2103), helpers returning masks included
//   per-warp slots `__shared__ T s[32]` indexed by lane/warp -> 64 slots (FRY2209)
// Anything else numeric (16, 31, 32, multiples of 32) in an expression with a lane id, warp index
// or thread id of the component blocks it, as do literal block sizes that are not a multiple of
// the wavefront, 32-based arithmetic in the host code that launches it, lane math hidden in macros
// and edits the fixer cannot make. Every rewrite keeps NVIDIA semantics: warpSize is 32 there.
//
// A component the warpSize form cannot fix (and that is not rows of 32) is tried as logical 32-lane
// warps instead: its 32s stay, each half of a 64-lane wavefront acts as one CUDA warp, and only
// what sees the whole wavefront changes (shuffles get the width 32, ballots and votes take their
// half, warpSize becomes 32). Right for any block size; see Planner::logical_mode and
// docs/wave64.md.
//
// A component with WMMA calls takes neither form (a fragment belongs to the whole wavefront): it is
// tried as one CUDA warp per wavefront instead -- every launch doubles the block in x, warp indices
// divide by 64, lanes stay `% 32` so lanes 32-63 repeat lanes 0-31 -- when every thread id is a warp
// index or a lane, nothing counts a clone twice and every launch is visible and fits; see
// Planner::wmma_mode and docs/wave64.md ("WMMA").
//
// Functions without any warp operation in reach are not components: grouping threads by 32 is
// plain arithmetic there (tile coordinates, work splits) and right on any wavefront.
//
// The planner is built of units under analysis/wave64_fix/ (planner.h lists them and holds the
// state they share); this header is its whole interface.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/facts_spool.h"
#include "analysis/hazards.h"
#include "analysis/profile.h"
#include "analysis/wave64_fix/hints.h"
#include "migrate/file_migration.h"

namespace ferry::analysis {

struct Wave64FixInput {
  std::string key;                     // the file's name in the plan (its project path)
  const migrate::FileMigration* file;  // the original text's tokens, or null: `load` makes them
  const FileFacts* facts;              // or null: `load_facts` reads them
  // When `file` is null: lexes the original text again (a FileMigration whose path() is `key`).
  // The planner calls it when it reads the file and keeps a few such files at a time, so that a
  // tree's planning holds its facts, not every file's tokens.
  std::function<std::shared_ptr<const migrate::FileMigration>()> load = {};
  std::string_view text = {};  // when `file` is null: the original text (what `load` lexes)
  // When `file` is null and the caller holds no text (`text` empty): reads the original text.
  std::function<std::string()> read = {};
  // When `facts` is null: reads the file's facts again (a FactsSpool). The planner keeps those it
  // read most recently, up to a budget, so that a tree's planning does not hold every file's facts.
  std::function<std::shared_ptr<const FileFacts>()> load_facts = {};
  // When `facts` is null: the head of the file's facts alone (FactsSpool::head), read before the
  // planner's sweep; without it the planner reads the facts (load_facts) for their head.
  std::function<FactsHead()> load_head = {};
};

struct Wave64ByteEdit {
  std::uint32_t begin;
  std::uint32_t end;
  std::string text;
};

// A fix of one hazard, on its own (the workbench's apply-fix; Wave64FixOptions::site_fixes_of).
struct Wave64SiteFix {
  // The edits of the file that make it: its whole component's when the planner fixes that
  // component and every edit of it is in this file; else the site's own edits, for a hazard whose
  // fix stands by itself (a warp-width constant every use of which is a warp width, FRY2204; a
  // reduction whose offset only feeds its shuffles, FRY2205).
  std::vector<Wave64ByteEdit> edits;
  bool whole_component = false;
  // Site fixes only: why the component is not fixed as a whole (the planner's reason).
  std::string left;
};

struct Wave64FilePlan {
  std::vector<Wave64ByteEdit> edits;  // sorted, non-overlapping
  // Hazard anchors (code, byte offset of the reported token): fixed, or left with a reason.
  std::set<std::pair<Diag, std::uint32_t>> fixed;
  std::map<std::pair<Diag, std::uint32_t>, std::string> unfixed;
  // Hazards in code no warp operation reaches: plain arithmetic, right on any wavefront (notes).
  std::set<std::pair<Diag, std::uint32_t>> harmless;
  // Byte offsets of variables widened to 64 bits and of __popc/__ffs calls widened: the HIP
  // warp-intrinsics pass reports those as FRY2102/FRY2103, which become notes.
  std::set<std::uint32_t> widened_vars;
  std::set<std::uint32_t> widened_calls;
  // Fixed anchors whose fix is not the warpSize form, with what was done instead (the logical
  // 32-lane warps: the 32s stay). The hint says so.
  std::map<std::pair<Diag, std::uint32_t>, std::string> fixed_how;
  // Logical warps: ballots stored in 32 bits and bit functions of them, right as they are now
  // that a ballot is its half's 32 bits (their FRY2102/FRY2103 become notes).
  std::set<std::uint32_t> halved_vars;
  std::set<std::uint32_t> halved_calls;
  // With Wave64FixOptions::site_fixes_of naming this file: each hazard anchor of the file that can
  // be fixed by itself, with its edits. Not part of `edits` (a plan for one site at a time).
  std::map<std::pair<Diag, std::uint32_t>, Wave64SiteFix> site_fixes;
};

struct Wave64FixStats {
  int components = 0;
  int fixed_components = 0;
  int sites = 0;  // hazards (anchors) in components
  int fixed_sites = 0;
  int harmless_sites = 0;
  int edits = 0;
  // Of the fixed: components (and their anchors) kept as logical 32-lane warps.
  int logical_components = 0;
  int logical_sites = 0;
};

// Facts handed from planning to the file's migration, one entry per file, each taken once (moved
// out and dropped from here). Safe to take from several threads (migrate --jobs).
class HandedFacts {
 public:
  void put(std::string path, FileFacts facts);
  // The facts `spool` keeps under `id`, read when taken (a tree's wait there, not in memory).
  void put(std::string path, std::shared_ptr<const FactsSpool> spool, std::size_t id);
  // The entry of `path` (or, for a single file planned under its name and migrated under the path
  // given, the entry whose key ends `path` after a '/'), moved out; nullopt when none.
  [[nodiscard]] std::optional<FileFacts> take(std::string_view path);

 private:
  struct Entry {
    std::optional<FileFacts> facts;  // else in spool_ under `id`
    std::size_t id = 0;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry, std::less<>> facts_;
  std::shared_ptr<const FactsSpool> spool_;  // one spool for all entries that have none in memory
};

struct Wave64FixPlan {
  std::map<std::string, Wave64FilePlan> files;
  // Per file (same keys), the facts the hazard checks read (collect_facts(file) without the
  // project's constants), kept from planning where they are the same: check_all need not compute
  // them again. Filled by the hip target's pre-pass; not part of what the plan decides. Each is
  // taken by its file's migration (HandedFacts::take), so a tree does not hold them past the file.
  std::shared_ptr<HandedFacts> hazard_facts = std::make_shared<HandedFacts>();
  Wave64FixStats stats;
  // One line per component left unfixed: "file:line: reason".
  std::vector<std::string> blocked;
};

// Plans the fixes for the files analyzed together (a project). `uses`: the warp-width constant
// uses across the same files (record_warp_constant_uses).
struct Wave64FixOptions {
  // Rewrite 32-bit full masks of the _sync intrinsics to 64 bits (FRY2206). Only for CUDA output
  // (`analyze --fix`): `migrate --to hip` drops the masks (its warp-intrinsics pass).
  bool fix_masks = false;
  // The output stays CUDA (`analyze --fix`): the logical-warp form writes expressions both CUDA
  // and HIP have (no __lane_id, the _sync names kept for the port that follows).
  bool cuda_output = false;
  // The plan restricted to one site at a time, for the file of this key (empty: none): fills
  // that file's Wave64FilePlan::site_fixes. The rest of the plan is what it is without it.
  std::string site_fixes_of;
};

[[nodiscard]] Wave64FixPlan plan_wave64_fixes(const std::vector<Wave64FixInput>& files, const Profile& profile,
                                              const WarpConstantUses& uses, const Wave64FixOptions& options = {});

// Form (a) of WMMA components (docs/wave64.md, "WMMA"): the texts a launch's block argument
// `original` takes when the block is doubled in x -- an integer, a dim3 variable, a dim3(...)
// expression, in this order -- each followed in the output by ` /* ferry-cuda: ORIGINAL */`. The
// planner recognises them in its own output; the cuda target writes ORIGINAL back.
[[nodiscard]] std::vector<std::string> wmma_doubled_block_forms(std::string_view original);

// Applies a file's planned edits. Returns false (and applies nothing) when one would overlap an
// edit already proposed on the file.
bool apply_wave64_fixes(migrate::FileMigration& file, const Wave64FilePlan& plan);

}  // namespace ferry::analysis
