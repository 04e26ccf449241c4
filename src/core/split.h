// Splitting text at a separator: the fields of a rules or profile table row, the lines of a
// table, a ':'-separated search path. Empty fields are kept (a row's empty column is a field);
// table_rows() drops a table's blank and comment lines.
#pragma once

#include <string_view>
#include <vector>

namespace ferry {

[[nodiscard]] inline std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? s.npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// The lines of `text`, each keeping its '\n' (the last one may lack it): joined, they are the
// text again (the three-way merge, the build-file records, the report's side-by-side view).
[[nodiscard]] inline std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

// The rows of a table's text: its lines without a trailing '\r', blank lines and lines that
// start with '#' (comments) left out.
[[nodiscard]] inline std::vector<std::string_view> table_rows(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::string_view line : split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.front() != '#') out.push_back(line);
  }
  return out;
}

}  // namespace ferry
