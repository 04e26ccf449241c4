// Splitting text at a separator: the fields of a rules or profile table row, the lines of a
// table, a ':'-separated search path. Empty fields are kept (a row's empty column is a field).
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

}  // namespace ferry
