// The headers a source's #include lines name, for verify's environment probes (PyTorch, MPI):
// a line scan, not a preprocessor, so conditional includes count too (the probe only widens the
// include path).
#pragma once

#include <string_view>

namespace ferry::verify {

// Calls `found(header)` for each `#include <h>` / `#include "h"` line of `source`, in order, until
// it returns true; returns that header, or an empty view.
template <class Pred>
[[nodiscard]] std::string_view find_include(std::string_view source, Pred found) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  };
  std::size_t pos = 0;
  while (pos < source.size()) {
    std::size_t nl = source.find('\n', pos);
    if (nl == std::string_view::npos) nl = source.size();
    std::string_view line = trim(source.substr(pos, nl - pos));
    pos = nl + 1;
    if (line.empty() || line.front() != '#') continue;
    line = trim(line.substr(1));
    if (line.substr(0, 7) != "include") continue;
    line = trim(line.substr(7));
    if (line.size() < 2 || (line.front() != '<' && line.front() != '"')) continue;
    const char close = line.front() == '<' ? '>' : '"';
    const std::size_t end = line.find(close, 1);
    if (end == std::string_view::npos) continue;
    const std::string_view header = line.substr(1, end - 1);
    if (found(header)) return header;
  }
  return {};
}

}  // namespace ferry::verify
