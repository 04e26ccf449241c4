// A byte range of a source widened to the whole lines it stands on, when nothing else does: the
// blanks before it, the blanks and '\r' after it and the line's '\n'. Removing a construct that
// had its lines to itself (an #include, a statement) then leaves no blank line behind.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace ferry::rewrite {

// [begin, end) widened to its whole lines; nullopt when other text shares the first or last line.
[[nodiscard]] inline std::optional<std::pair<std::uint32_t, std::uint32_t>> whole_lines(std::string_view src,
                                                                                        std::uint32_t begin,
                                                                                        std::uint32_t end) {
  while (end < src.size() && (src[end] == ' ' || src[end] == '\t' || src[end] == '\r')) ++end;
  if (end < src.size() && src[end] != '\n') return std::nullopt;
  while (begin > 0 && (src[begin - 1] == ' ' || src[begin - 1] == '\t')) --begin;
  if (begin > 0 && src[begin - 1] != '\n') return std::nullopt;
  return std::pair{begin, end < src.size() ? end + 1 : end};
}

}  // namespace ferry::rewrite
