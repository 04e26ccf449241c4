// Lossless tokenizer for Python 3 sources, for the torch_npu target.
//
// Every byte belongs to exactly one token, so concatenating the texts reproduces the file. It
// never fails: unknown bytes become `Other`. Strings cover every prefix (r, b, u, f and their
// combinations, any case), single and triple quotes, escapes, and f-string replacement fields
// (nested strings inside `{...}` do not end the f-string). Comments run to the end of the line;
// a backslash-newline is a `Continuation`. Indentation is plain whitespace: the migrator only
// rewrites tokens and never needs INDENT/DEDENT. Newlines inside brackets are `Newline` tokens
// too; `depth` tells whether a newline ends a logical line (depth 0).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace ferry::lex::py {

enum class Kind : std::uint8_t {
  Whitespace,    // spaces, tabs, form feeds
  Continuation,  // backslash + newline
  Newline,       // "\n" or "\r\n"
  Comment,       // "# ..." up to the newline
  Name,          // identifiers and keywords
  Number,        // 1, 0x1f, 1_000, 1.5e-3, 2j
  String,        // any string literal, prefix included
  Op,            // operators and delimiters, longest match
  Other,
};

struct Token {
  Kind kind;
  std::uint16_t depth;  // bracket depth before this token
  std::uint32_t begin;
  std::uint32_t end;
  std::uint32_t line;  // 1-based
  std::uint32_t col;   // 1-based byte column

  [[nodiscard]] std::string_view text(std::string_view src) const { return src.substr(begin, end - begin); }
};

[[nodiscard]] constexpr bool is_trivia(Kind k) {
  return k == Kind::Whitespace || k == Kind::Continuation || k == Kind::Newline || k == Kind::Comment;
}

[[nodiscard]] std::vector<Token> tokenize(std::string_view src);

// For a String token's text: the prefix letters (lower-cased), the quote ("'", "\"", "'''", "\"\"\"")
// and the body between the quotes (empty for an unterminated string's missing end).
struct StringParts {
  std::string_view prefix;
  std::string_view quote;
  std::string_view body;
  bool terminated = true;
};
[[nodiscard]] StringParts split_string(std::string_view token_text);

}  // namespace ferry::lex::py
