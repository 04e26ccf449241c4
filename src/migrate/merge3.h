// Line-based three-way merge, for re-migration rounds (docs/rounds.md).
//
//   base   = the text Ferry generated in the previous round,
//   ours   = the text Ferry generates now (the input or the rules changed),
//   theirs = the output as the user left it (hand edits).
//
// Lines are compared exactly (line ending included). A region changed on one side only takes
// that side; a region changed identically on both sides is taken once; a region changed
// differently on both sides (or two changes touching each other) is a conflict, written with
// markers that name their origin:
//
//   <<<<<<< ferry-new (regenerated from the changed input)
//   ...ours...
//   =======
//   ...theirs...
//   >>>>>>> user-edit (your previous output)
//
// The diff is Myers' O(ND) algorithm over interned lines, after trimming the common prefix and
// suffix, written here (no third-party code).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/split.h"

namespace ferry::migrate {

inline constexpr std::string_view kConflictBegin = "<<<<<<< ferry-new (regenerated from the changed input)";
inline constexpr std::string_view kConflictSep = "=======";
inline constexpr std::string_view kConflictEnd = ">>>>>>> user-edit (your previous output)";

// Lines are split by ferry::split_lines (core/split.h): each keeps its '\n'.

// A change of `a` into `b`: a[a_begin, a_end) is replaced by b[b_begin, b_end).
struct Hunk {
  std::size_t a_begin, a_end, b_begin, b_end;
};

// Minimal line diff (Myers). Hunks are sorted, non-adjacent, and cover every difference.
[[nodiscard]] std::vector<Hunk> diff_lines(const std::vector<std::string_view>& a,
                                           const std::vector<std::string_view>& b);

struct MergeResult {
  std::string text;                         // merged text; conflicts carry the markers above
  std::size_t conflicts = 0;                // number of conflict regions
  std::vector<std::size_t> conflict_lines;  // 1-based line of each "<<<<<<<" in `text`
};

[[nodiscard]] MergeResult merge3(std::string_view base, std::string_view ours, std::string_view theirs);

}  // namespace ferry::migrate
