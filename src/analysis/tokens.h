// Token helpers the hazard analysis shares (facts, taint and every check under checks/):
// word tests, operand bounds over a lex::CodeView, launch arguments, and the diagnostics sink
// with the profile wording. Internal to src/analysis/ (namespace detail), except the top-level
// walks at the end (namespace ferry::analysis), which the targets' passes and the wave64
// compiler driver use too.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/checks/checks.h"
#include "analysis/profile.h"
#include "lex/code_view.h"
#include "migrate/file_migration.h"

namespace ferry::analysis::detail {

using lex::CodeView;
using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

[[nodiscard]] bool is_one_of(std::string_view t, std::initializer_list<std::string_view> set);
[[nodiscard]] std::string lower(std::string_view s);
// Words that end an operand search: keywords and type words.
[[nodiscard]] bool is_keyword_stop(std::string_view s);
// Names that say "the width of a warp": WARP_SIZE, kWarpSize, warp_width, THREADS_PER_WARP,
// WAVEFRONT_SIZE. Plural "warps" means a count of warps and is excluded.
[[nodiscard]] bool is_warp_width_name(std::string_view name);

// The warp functions with a lane mask as their first argument. __syncwarp is not here: its mask
// only names the lanes that wait, it moves no data, and HIP's replacement (a wavefront barrier)
// is right for any mask.
extern const std::array<std::string_view, 17> kWarpSyncFunctions;
[[nodiscard]] bool is_ballot_call_name(std::string_view t);

// An integer literal's value when it fits a long long.
[[nodiscard]] std::optional<long long> parse_int(std::string_view t);
// A token that can end an operand: then a following '&', '*', '-', '+' is binary.
[[nodiscard]] bool ends_operand(const CodeView& v, std::size_t ci);
// End of the expression starting at `first`: the code index before the first ';' or ',' at
// depth 0, or before a closing bracket of an enclosing group.
[[nodiscard]] std::size_t expression_last(const CodeView& v, std::size_t first, std::size_t limit);
// First code index of the left operand of the binary operator at `op`.
[[nodiscard]] std::size_t left_operand_first(const CodeView& v, std::size_t op, std::size_t floor);
// Last code index of the primary operand (with member accesses, calls, subscripts) at `first`.
[[nodiscard]] std::size_t primary_last(const CodeView& v, std::size_t first);
// A `for` loop over lane offsets of 32-lane warps (FRY2205; the check and the wave64 planner read
// loops through this one reader): a variable set to a literal that halves each step from 16
// (`o = 16; o > 0; o >>= 1`: `hit` is the 16), or doubles from 1 while below 32 (`d = 1; d < 32;
// d <<= 1`, or `d <= 16`: `hit` is the bound). The step and condition are read token by token.
struct LaneLoop {
  std::string var;
  bool halving = false;           // else doubling
  std::size_t hit = npos;         // the literal FRY2205 reports (the start or the bound)
  std::size_t close = npos;       // the header's ')'
  std::size_t body_first = npos;  // the body: a brace pair, or one statement up to its ';'
  std::size_t body_last = npos;
};
// The loop whose `for` is at `for_ci`, when it is one (its header and body close).
[[nodiscard]] std::optional<LaneLoop> lane_loop(const CodeView& v, std::size_t for_ci);
// The launch arguments between <<< and >>> at `open`; empty when they do not close.
[[nodiscard]] std::vector<ArgRange> launch_args(const CodeView& v, std::size_t open);

// "on gfx906 a wavefront has 64 lanes"
[[nodiscard]] std::string prof_why(const Profile& p);
// "65536 bytes (64 KiB)"
[[nodiscard]] std::string bytes_str(long long b);
// Reports a hazard unless the line is excluded (ferry: ignore); one that the wave64 planner
// (opt.fixed_sites) repaired is a note (it is gone from the output); one the fixer left
// gets its reason as the hint (opt.unfixed_reasons), lane math no warp operation reaches is a
// note (opt.harmless_sites).
void report(FileMigration& f, const HazardOptions& opt, Diag code, std::size_t ci, std::string msg, std::string hint);

}  // namespace ferry::analysis::detail

namespace ferry::analysis {

// ----- Top-level walks: template argument lists, parameter lists, launch parameters -----
// One walk serves every "split at top-level commas" and "find the closing `>`" of the code base.
//
// Visits the code tokens of [first, last] outside nested ( [ { groups, each with the angle-bracket
// depth before it (`<` opens one, `>` closes one, `>>` two; a comparison counts as well: the
// callers walk template lists and declarations). An opening bracket is visited, then the walk
// skips to its partner when that is within `last` (else it walks into the group). `visit(ci,
// angle)` returns false to stop. Returns the angle depth after the last token visited.
template <class Visit>
int walk_top_level(const lex::CodeView& v, std::size_t first, std::size_t last, Visit visit) {
  int angle = 0;
  for (std::size_t i = first; i <= last && i < v.code_size(); ++i) {
    if (!visit(i, angle)) return angle;
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
      const std::size_t m = v.partner(i);
      if (m != lex::npos && m <= last) i = m;
    } else if (v.is(i, "<")) {
      ++angle;
    } else if (v.is(i, ">")) {
      --angle;
    } else if (v.is(i, ">>")) {
      angle -= 2;
    }
  }
  return angle;
}

// The `>` closing the template argument list whose `<` is at `open`, at or before `last`; npos
// when a `;` or a closing bracket of an enclosing group comes first, a bracket inside is
// unbalanced or closes past `last`, or a `>>` closes the list and an enclosing one together. A
// `>>` that closes this list and a nested one is returned.
[[nodiscard]] std::size_t angle_close(const lex::CodeView& v, std::size_t open, std::size_t last = lex::npos);

// The `<` that opens the template argument list whose `>` (or `>>`, closing it with a list nested
// in it) is at `close`, walking back no further than `first`; npos when a `;`, `{` or `}` comes
// first. The kernel name before a launch's `<<<` is read back so (`k<T, N><<<...>>>`).
[[nodiscard]] std::size_t angle_open(const lex::CodeView& v, std::size_t close, std::size_t first = 0);

// The pieces of [first, last] between its top-level commas (none when first > last): commas
// inside ( [ { groups do not split, nor, with `angles`, commas inside `<...>` (template
// arguments; launch parameters and call arguments are expressions: pass false).
[[nodiscard]] std::vector<lex::ArgRange> split_top_level(const lex::CodeView& v, std::size_t first, std::size_t last,
                                                         bool angles = true);

// The launch parameters between `<<<` at `open` and its `>>>` (detail::launch_args above, the
// one reader of a launch's parameters: the hazard checks and the hip target's launch pass).
using detail::launch_args;

// A name that mentions a warp or a wavefront (`warp`, `WAVE`, `kWarpSize`), any case.
[[nodiscard]] bool names_warp_or_wave(std::string_view name);

}  // namespace ferry::analysis
