// FRY2205: shuffle reductions over 32 lanes (the planner's loop sites fix them), and unrolled
// butterflies that start at offset 16 (check_unrolled_shuffles).
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <optional>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

void check_shuffle_loops(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (const std::size_t ci : v.occurrences("for")) {
    if (!v.is(ci + 1, "(") || facts.function_at(ci) == npos) continue;
    const std::optional<LaneLoop> loop = lane_loop(v, ci);
    if (!loop) continue;
    const std::string& var = loop->var;
    const bool halving = loop->halving;
    const std::size_t close = loop->close, hit = loop->hit;
    const std::size_t body_first = loop->body_first, body_last = loop->body_last;
    bool shuffles = false, safe = halving;
    for (std::size_t i = body_first; i <= body_last && i < v.code_size(); ++i) {
      if (v.is_identifier(i) && v.text(i).rfind("__shfl", 0) == 0 && v.is(i + 1, "(")) {
        shuffles = true;
        const std::string_view fname = v.text(i);
        const bool sync = fname.size() > 5 && fname.substr(fname.size() - 5) == "_sync";
        const bool kind_ok = is_one_of(fname, {"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"});
        const auto args = file.call_args(i + 1);
        const std::size_t want = sync ? 3 : 2;
        if (!kind_ok || args.size() != want) {
          safe = false;
          continue;
        }
        if (sync) {
          const auto m = eval(v, facts, args[0].first, args[0].last, nullptr);
          if (!m || (*m != 0xffffffffLL && *m != -1)) safe = false;
        }
        // the loop variable is the lane offset, alone
        const ArgRange& off = args[want - 1];
        if (off.first != off.last || v.text(off.first) != var) safe = false;
        for (std::size_t a = 0; a + 1 < want; ++a)
          for (std::size_t j = args[a].first; j <= args[a].last; ++j)
            if (v.text(j) == var) safe = false;
        continue;
      }
      if (v.is_identifier(i) && v.text(i) == var && !v.is_member_name(i)) {
        // any use outside a shuffle's offset argument
        bool in_shuffle_offset = v.is(i + 1, ")") && i > 0 && v.is(i - 1, ",");
        if (!in_shuffle_offset) safe = false;
      }
    }
    if (!shuffles) continue;
    report(file, opt, Diag::ShuffleLoop32, hit,
           "shuffle reduction over 32 lanes ('" + std::string(file.span_text(ci + 2, close - 1)) + "'); " +
               prof_why(p) + ", so lanes 32.." + std::to_string(p.wave_size - 1) +
               " are never combined with lanes 0..31",
           halving ? "start the loop at warpSize / 2" +
                         std::string(safe ? " ('ferry analyze --fix' can do it)"
                                          : " and check the shuffle masks and widths: not fixed "
                                            "automatically because a shuffle in the loop has a "
                                            "partial mask, a width, or uses the offset otherwise")
                   : "bound the loop by warpSize (" + var + " < warpSize)");
  }
  check_unrolled_shuffles(file, facts, opt);  // the same hazard written without a loop
}

// Unrolled butterflies: `v += __shfl_xor_sync(m, v, 16);` as the first of its steps.
void check_unrolled_shuffles(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (const std::size_t ci : v.occurrences({"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"})) {
    if (!v.is(ci + 1, "(") || facts.function_at(ci) == npos) continue;
    const std::string_view name = v.text(ci);
    const auto args = file.call_args(ci + 1);
    const std::size_t off = name.ends_with("_sync") ? 2 : 1;
    if (args.size() != off + 1 || args[off].first != args[off].last || !v.is_number(args[off].first) ||
        parse_int(v.text(args[off].first)) != 16)
      continue;
    report(file, opt, Diag::ShuffleLoop32, args[off].first,
           "shuffle step at offset 16 ('" + std::string(file.span_text(ci, v.partner(ci + 1))) +
               "'): an unrolled reduction over 32 lanes; " + prof_why(p) + ", so lanes 32.." +
               std::to_string(p.wave_size - 1) + " are never combined with lanes 0..31",
           "start the butterfly at warpSize / 2: a loop for (int o = warpSize / 2; o > 0; o /= 2), or a "
           "step at offset 32 before this one on wave64");
  }
}

}  // namespace ferry::analysis
