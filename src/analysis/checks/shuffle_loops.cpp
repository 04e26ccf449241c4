// FRY2205: shuffle reductions over 32 lanes (the planner's loop sites fix them), and unrolled
// butterflies that start at offset 16 (check_unrolled_shuffles).
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

void check_shuffle_loops(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (std::size_t ci = 0; ci + 1 < v.code_size(); ++ci) {
    if (!v.is(ci, "for") || !v.is(ci + 1, "(") || facts.function_at(ci) == npos) continue;
    const std::size_t close = v.partner(ci + 1);
    if (close == npos) continue;
    // split the header at top-level ';'
    std::vector<std::size_t> semis;
    for (std::size_t i = ci + 2; i < close; ++i) {
      if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
        i = v.partner(i) == npos ? i : v.partner(i);
        continue;
      }
      if (v.is(i, ";")) semis.push_back(i);
    }
    if (semis.size() != 2) continue;
    // init: [type] var = <literal>
    std::size_t eq = npos;
    for (std::size_t i = ci + 2; i < semis[0]; ++i)
      if (v.is(i, "=")) {
        eq = i;
        break;
      }
    if (eq == npos || !v.is_identifier(eq - 1) || eq + 2 != semis[0] || !v.is_number(eq + 1)) continue;
    const std::string var(v.text(eq - 1));
    const auto start = parse_int(v.text(eq + 1));
    // step
    const std::string step(file.span_text(semis[1] + 1, close - 1));
    auto squeeze = [](std::string s) {
      s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
      return s;
    };
    const std::string st = squeeze(step);
    const bool halving =
        st == var + ">>=1" || st == var + "/=2" || st == var + "=" + var + ">>1" || st == var + "=" + var + "/2";
    const bool doubling =
        st == var + "<<=1" || st == var + "*=2" || st == var + "=" + var + "<<1" || st == var + "=" + var + "*2";
    const std::string cond = squeeze(std::string(file.span_text(semis[0] + 1, semis[1] - 1)));
    std::size_t hit = npos;
    if (halving && start == 16) hit = eq + 1;
    if (doubling && start == 1 && (cond == var + "<32" || cond == var + "<=16")) {
      for (std::size_t i = semis[0] + 1; i < semis[1]; ++i)
        if (v.is_number(i)) hit = i;
    }
    if (hit == npos) continue;
    // body
    std::size_t body_first = close + 1, body_last;
    if (v.is(body_first, "{")) {
      body_last = v.partner(body_first);
      if (body_last == npos) continue;
    } else {
      body_last = body_first;
      while (body_last < v.code_size() && !v.is(body_last, ";")) {
        if (v.partner(body_last) != npos && (v.is(body_last, "(") || v.is(body_last, "{") || v.is(body_last, "[")))
          body_last = v.partner(body_last);
        ++body_last;
      }
    }
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
  for (std::size_t ci = 0; ci + 1 < v.code_size(); ++ci) {
    if (!v.is_identifier(ci) || !v.is(ci + 1, "(") || facts.function_at(ci) == npos) continue;
    const std::string_view name = v.text(ci);
    if (!is_one_of(name, {"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"})) continue;
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
