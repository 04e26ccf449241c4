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

// The code tokens that start where the text holds `needle` and that `keep(ci)` accepts,
// ascending: for a token the lexer makes only of certain characters (a launch's "<<<", a
// directive's "#"), the text's occurrences are its candidates, each found by a galloping search
// over the code tokens' starts, so a walk for a rare token visits its occurrences, not every token.
template <class Keep>
[[nodiscard]] std::vector<std::size_t> code_tokens_at(const lex::CodeView& v, std::string_view needle, Keep keep) {
  std::vector<std::size_t> out;
  const std::string_view src = v.source();
  const lex::TokenList& toks = v.tokens();
  const std::size_t n = v.code_size();
  const auto starts_before = [&](std::size_t ci, std::size_t at) { return toks.begin(v.token_index(ci)) < at; };
  std::size_t lo = 0;  // no code token before this one starts at or after the occurrence
  for (std::size_t at = src.find(needle); at != std::string_view::npos; at = src.find(needle, at + 1)) {
    // The first code token starting at or after `at`: galloping from `lo` (occurrences are often
    // a few tokens apart), then bisecting the last step.
    std::size_t step = 1;
    while (lo + step < n && starts_before(lo + step, at)) {
      lo += step;
      step *= 2;
    }
    std::size_t hi = std::min(lo + step, n);
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (starts_before(mid, at)) lo = mid + 1;
      else hi = mid;
    }
    if (lo < n && toks.begin(v.token_index(lo)) == at && keep(lo)) out.push_back(lo);
  }
  return out;
}

// The code indices of the kernel launches' `<<<` (lex::Kind::LaunchOpen), ascending; the lexer
// makes one only of the three characters "<<<" (code_tokens_at).
[[nodiscard]] inline std::vector<std::size_t> launch_opens(const lex::CodeView& v) {
  return code_tokens_at(v, "<<<", [&](std::size_t ci) { return v.code(ci).kind == lex::Kind::LaunchOpen; });
}

// The first code index in [from, end) whose key (lex::short_key) is `a` or `b` (0, no token's key,
// for none), else `end`: a loop that reads nothing but the keys, for walks that act on a few kinds
// of punctuator only.
[[nodiscard]] inline std::size_t next_key(const lex::CodeView& v, std::size_t from, std::size_t end, std::uint64_t a,
                                          std::uint64_t b = 0) {
  while (from < end && v.key(from) != a && v.key(from) != b) ++from;
  return from;
}

}  // namespace ferry::analysis::detail
