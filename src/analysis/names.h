// Name lookups of the analysis over a file's shared identifier index (lex::CodeView::occurrences,
// name_id): a walk that starts at a few names (the taint sources, a check's trigger calls, the
// keywords of a definition) visits their occurrences in file order instead of testing every token.
// Internal to src/analysis/ (namespace detail).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "lex/code_view.h"

namespace ferry::analysis::detail {

// The code indices of the identifiers whose name satisfies `pred`, ascending. `pred` is asked once
// per distinct name of the file, not once per token.
// The names are asked in the order of their first occurrences (as a walk over the tokens would
// ask them), and only the chosen names' occurrences are visited.
template <class Pred>
[[nodiscard]] std::vector<std::size_t> identifiers_where(const lex::CodeView& v, Pred pred) {
  std::vector<std::size_t> out;
  std::size_t runs = 0;  // chosen names: their occurrences are each ascending
  for (std::uint32_t id = 0, n = static_cast<std::uint32_t>(v.name_count()); id < n; ++id) {
    if (!pred(v.name_text(id))) continue;
    const std::span<const std::uint32_t> at = v.occurrences_of(id);
    out.insert(out.end(), at.begin(), at.end());
    ++runs;
  }
  if (runs > 1) std::sort(out.begin(), out.end());
  return out;
}

// Whether any identifier of the file is one of `names`.
[[nodiscard]] inline bool mentions_any(const lex::CodeView& v, std::initializer_list<std::string_view> names) {
  return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return v.mentions(n); });
}

// The occurrences (ascending code indices, as CodeView::occurrences gives them) inside [first, end).
[[nodiscard]] inline std::span<const std::uint32_t> occurrences_in(std::span<const std::uint32_t> at, std::size_t first,
                                                                   std::size_t end) {
  const auto lo = std::lower_bound(at.begin(), at.end(), first);
  const auto hi = std::lower_bound(lo, at.end(), end);
  return at.subspan(static_cast<std::size_t>(lo - at.begin()), static_cast<std::size_t>(hi - lo));
}

// The code indices of the kernel launches' `<<<` (lex::Kind::LaunchOpen), ascending. The lexer
// makes one only of the three characters "<<<", so the text's "<<<"s are the candidates: each is
// the launch when a code token of that kind starts there (found by bisection over the code
// tokens' starts), and a file without one is not walked at all.
[[nodiscard]] inline std::vector<std::size_t> launch_opens(const lex::CodeView& v) {
  std::vector<std::size_t> out;
  const std::string_view src = v.source();
  const lex::TokenList& toks = v.tokens();
  std::size_t lo = 0;  // no code token before this one starts at or after the candidate
  for (std::size_t at = src.find("<<<"); at != std::string_view::npos; at = src.find("<<<", at + 1)) {
    std::size_t hi = v.code_size();
    while (lo < hi) {  // the first code token starting at or after `at`
      const std::size_t mid = lo + (hi - lo) / 2;
      if (toks.begin(v.token_index(mid)) < at) lo = mid + 1;
      else hi = mid;
    }
    if (lo < v.code_size() && toks.begin(v.token_index(lo)) == at &&
        toks.kind(v.token_index(lo)) == lex::Kind::LaunchOpen)
      out.push_back(lo);
  }
  return out;
}

}  // namespace ferry::analysis::detail
