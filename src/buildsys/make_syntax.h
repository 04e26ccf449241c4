// Makefile syntax shared by the CUDA -> HIP and HIP -> CUDA build-file migrations: logical lines
// (backslash continuations joined, layout kept), the comment part split off outside recipes,
// `define` blocks recognised, and the words of a line with the gaps between them, so that a
// rewrite changes words and keeps everything else byte for byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::buildsys::make {

struct LogicalLine {
  std::string_view text;     // the whole logical line, newline(s) included
  std::size_t begin = 0;     // byte offset in the file
  std::uint32_t line = 0;    // 1-based number of its first physical line
  std::uint32_t lines = 0;   // physical lines it spans
  bool recipe = false;       // starts with a tab: shell, '#' belongs to the shell
  bool verbatim = false;     // inside define ... endef, or a comment line: never rewritten
  std::size_t code_end = 0;  // [0, code_end) is code, the rest a make comment
};

[[nodiscard]] std::vector<LogicalLine> logical_lines(std::string_view text);

// The words of `code` ($(...) and ${...} kept whole) and the gap before each; `tail` is the gap
// after the last word.
struct Words {
  std::vector<std::string> words;
  std::vector<std::string> gaps;
  std::string tail;
};
[[nodiscard]] Words split_words(std::string_view code);

// Joins `mapped` (one entry per word; "" drops the word and the gap before it unless that gap
// holds a line continuation) with the gaps of `w`.
[[nodiscard]] std::string join_words(const Words& w, const std::vector<std::string>& mapped);

// Per logical line: whether it lies in a runtime switch, a conditional that compares a variable
// with a platform's name (`ifeq ($(GPU_RUNTIME), CUDA)` ... `else ifeq ($(GPU_RUNTIME), HIP)` ...
// `endif`, rocm-examples), its directives included. Each branch is the build the file's authors
// wrote for one platform: the migrations leave them as written and only flip the selector.
[[nodiscard]] std::vector<bool> runtime_switch_lines(const std::vector<LogicalLine>& lines);

}  // namespace ferry::buildsys::make
