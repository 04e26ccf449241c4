// Where a buffer says "ferry". Every mark Ferry reads back from a source holds the word: the
// exclusions (`// ferry: ignore`, `off`, `on`), the round-trip records (`/* ferry-cuda: ... */`,
// `/* ferry-hip: ... */`), the notes beside a value (`/* ferry: HIP_VERSION */`) and the compat
// headers' paths (`ferry/compat_cuda...`). Most files hold none, and several passes ask before
// they look for one: the view finds the word's offsets once, the first time it is asked, and
// keeps them with its tokens (CodeView::memo), where each pass searched the whole text.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lex/code_view.h"

namespace ferry::lex {

inline constexpr std::string_view kFerryWord = "ferry";

// The offsets of kFerryWord in `text`, ascending (a plain search; ferry_marks keeps its answer).
[[nodiscard]] std::vector<std::uint32_t> find_ferry_word(std::string_view text);
// The offsets of kFerryWord in the view's source, ascending.
[[nodiscard]] std::span<const std::uint32_t> ferry_marks(const CodeView& view);
// Whether the view's source holds `needle`, which holds kFerryWord: the answer of
// `view.source().find(needle) != npos`, read at the marks.
[[nodiscard]] bool source_mentions(const CodeView& view, std::string_view needle);

}  // namespace ferry::lex
