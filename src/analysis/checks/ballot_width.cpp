// FRY2207 FRY2208: ballot results stored in or counted as 32 bits.
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

void check_ballot_width(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  // The calls it reads, inside function bodies, in file order.
  for (const std::size_t i :
       v.occurrences({"__ballot_sync", "__ballot", "__activemask", "__popc", "__ffs", "__clz", "__brev"})) {
    const std::size_t fi = facts.function_at(i);
    if (fi == npos) continue;
    const FunctionInfo& fn = facts.functions[fi];
    if (!v.is(i + 1, "(")) continue;
    const std::string_view name = v.text(i);
    if (is_ballot_call_name(name)) {
      // FRY2207: T var = __ballot...(...) with a 32-bit T
      std::size_t k = i;
      if (k < 2 || !v.is(k - 1, "=") || !v.is_identifier(k - 2)) continue;
      const std::size_t var = k - 2;
      std::vector<std::string_view> words;
      std::size_t w = var;
      while (w > fn.body_open + 1 && (v.is_identifier(w - 1) || v.is(w - 1, "::"))) {
        --w;
        if (v.is_identifier(w)) words.push_back(v.text(w));
      }
      if (words.empty()) continue;
      std::reverse(words.begin(), words.end());
      std::vector<std::string_view> type;
      for (std::string_view s : words)
        if (!is_one_of(s, {"const", "volatile", "register", "static", "std"})) type.push_back(s);
      if (type.empty() || type[0] == "auto") continue;
      const bool unsigned_int = type.size() == 2 && type[0] == "unsigned" && type[1] == "int";
      const bool b32 =
          unsigned_int || (type.size() == 1 && is_one_of(type[0], {"unsigned", "int", "uint32_t", "uint", "int32_t"}));
      if (!b32) continue;
      std::string tname;
      for (std::string_view s : type) tname += (tname.empty() ? "" : " ") + std::string(s);
      report(file, opt, Diag::BallotResult32, var,
             "the result of " + std::string(name) + " is stored in 32-bit '" + tname + " " + std::string(v.text(var)) +
                 "'; " + prof_why(p) + " and the ballot is 64 bits wide, so lanes 32.." +
                 std::to_string(p.wave_size - 1) + " are dropped",
             "declare it unsigned long long (uint64_t) and count it with __popcll");
      continue;
    }
    std::string wide;
    if (name == "__popc") wide = "__popcll";
    else if (name == "__ffs") wide = "__ffsll";
    else if (name == "__clz") wide = "__clzll";
    else if (name == "__brev") wide = "__brevll";
    else continue;
    const std::size_t close = v.partner(i + 1);
    if (close == npos) continue;
    const unsigned t = range_taint(v, facts, facts.functions[fi].defs, i + 2, close - 1);
    if (!(t & kBallot)) continue;
    report(file, opt, Diag::BallotPopc32, i,
           std::string(name) + "(" + std::string(file.span_text(i + 2, close - 1)) +
               ") reads a ballot mask with a 32-bit bit operation; " + prof_why(p) + ", so lanes 32.." +
               std::to_string(p.wave_size - 1) + " are not counted",
           "use " + wide + " on a 64-bit (unsigned long long) mask");
  }
}

}  // namespace ferry::analysis
