// The edits a build-file migrator collects (Make or CMake, either direction), applied through the
// one edit mechanism, rewrite::EditSet.
//
// A migrator proposes edits per command, in any order. They are taken in the order of their start
// (ties keep the order they were proposed in), and one that starts inside the text an earlier one
// already took is dropped: the first to claim a byte range wins. That includes an insertion at
// the start of a range already replaced, which would otherwise land in front of the replacement
// (a migrator that wants both puts the insertion first).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::buildsys {

struct TextEdit {
  std::size_t begin, end;  // byte range of the original replaced; begin == end inserts
  std::string text;
};

[[nodiscard]] std::string apply_text_edits(std::string_view src, std::vector<TextEdit> edits);

}  // namespace ferry::buildsys
