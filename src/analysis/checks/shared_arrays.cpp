#include "analysis/checks/shared_arrays.h"

#include <string_view>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

std::vector<SharedArray> shared_arrays(const CodeView& v, const FileFacts& facts, std::size_t first, std::size_t last,
                                       const FunctionInfo* scope) {
  std::vector<SharedArray> out;
  if (first > last) return out;
  for (const std::size_t i : occurrences_in(v.occurrences("__shared__"), first, last + 1)) {
    if (v.in_directive(i)) continue;
    if (i > 0 && v.is(i - 1, "extern")) continue;
    std::size_t j = i + 1;
    std::vector<std::string_view> words;
    while (v.is_identifier(j) || v.is(j, "::")) {
      if (v.is_identifier(j)) {
        if (is_one_of(v.text(j), {"__align__", "alignas"}) && v.is(j + 1, "(")) {
          j = v.partner(j + 1) + 1;
          continue;
        }
        if (v.text(j) == "extern") break;
        words.push_back(v.text(j));
      }
      ++j;
    }
    if (words.size() < 2) continue;
    // words = type words + the first declarator's name; more declarators after commas
    std::size_t name_ci = j - 1;
    words.pop_back();
    const unsigned esize = lex::type_size(words);
    while (true) {
      SharedArray a{std::string(v.text(name_ci)), name_ci, i, esize, {}, 1, false};
      std::size_t k = name_ci + 1;
      while (v.is(k, "[")) {
        const std::size_t close = v.partner(k);
        if (close == npos) break;
        a.extents.push_back({k + 1, close - 1});
        for (std::size_t q = k + 1; q < close; ++q)
          if (v.is_number(q) && parse_int(v.text(q)) == 32) a.per_warp_32 = true;
        const auto e = eval(v, facts, k + 1, close - 1, scope);
        if (e && a.elements) a.elements = *a.elements * *e;
        else a.elements = std::nullopt;
        k = close + 1;
      }
      out.push_back(a);
      // skip an initializer, then another declarator?
      while (k < v.code_size() && !v.is(k, ",") && !v.is(k, ";")) {
        if (v.partner(k) != npos && (v.is(k, "(") || v.is(k, "{"))) k = v.partner(k);
        ++k;
      }
      if (v.is(k, ",") && v.is_identifier(k + 1)) {
        name_ci = k + 1;
        continue;
      }
      break;
    }
  }
  return out;
}

}  // namespace ferry::analysis
