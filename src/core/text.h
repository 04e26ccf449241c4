// Small text helpers shared across layers: the table readers' trim, the C identifier test, and the
// edit distance behind "did you mean" suggestions (the CLI's subcommands, opcheck's spec keys).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace ferry {

// `s` without leading and trailing characters of `chars` (by default spaces and CRs, what the
// rule tables allow around a cell).
[[nodiscard]] inline std::string_view trim(std::string_view s, std::string_view chars = " \r") {
  const std::size_t a = s.find_first_not_of(chars);
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(chars) - a + 1);
}

// A C identifier: [A-Za-z_][A-Za-z0-9_]* (ASCII).
[[nodiscard]] inline bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!(alpha || (i > 0 && c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// Levenshtein distance (insertions, deletions, substitutions of one byte each).
[[nodiscard]] inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace ferry
