// Lossless lexer for C, C++, CUDA and HIP sources.
//
// Every byte of the input belongs to exactly one token, trivia included, so concatenating the
// token texts reproduces the file. The lexer never fails: bytes it cannot classify become
// `Kind::Other` tokens. It knows just enough of the preprocessor to mark directive lines and
// to treat `#include <...>` paths as one token, and just enough CUDA to tell a kernel launch's
// `<<<`/`>>>` from shifts and nested template closers.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace ferry::lex {

enum class Kind : std::uint8_t {
  Whitespace,    // spaces, tabs, form feeds, and backslash-newline continuations
  Newline,       // one '\n' (or "\r\n")
  LineComment,   // "// ..." up to, not including, the newline
  BlockComment,  // "/* ... */" (an unterminated one runs to the end of the file)
  Identifier,
  Number,       // a pp-number: 0x1f, 1.5e-3f, 1'000'000, 3.f
  String,       // "..." with optional encoding prefix and user-defined suffix
  RawString,    // R"delim(...)delim"
  Char,         // '...' with optional prefix
  HeaderName,   // <path> or "path" right after #include / #include_next / #import
  Punct,        // operators and punctuators, longest match
  LaunchOpen,   // "<<<" of a kernel launch
  LaunchClose,  // ">>>" closing an open launch
  Other,        // anything else (stray bytes, '@', '$' not in identifiers, ...)
};

struct Token {
  Kind kind;
  bool in_directive;    // part of a preprocessor directive line (including its '#')
  std::uint32_t begin;  // byte offset
  std::uint32_t end;    // one past the last byte
  std::uint32_t line;   // 1-based line of `begin`
  std::uint32_t col;    // 1-based byte column of `begin`

  [[nodiscard]] std::string_view text(std::string_view src) const { return src.substr(begin, end - begin); }
};

[[nodiscard]] constexpr bool is_trivia(Kind k) {
  return k == Kind::Whitespace || k == Kind::Newline || k == Kind::LineComment || k == Kind::BlockComment;
}

[[nodiscard]] constexpr bool is_comment(Kind k) { return k == Kind::LineComment || k == Kind::BlockComment; }

// A token text of up to 7 bytes packed into one integer (its length in the low byte, then the
// bytes), so comparing a token with a short literal is one integer comparison. Longer texts all
// get kLongKey: compare those as text.
inline constexpr std::uint64_t kLongKey = 0xff;
[[nodiscard, gnu::always_inline]] constexpr std::uint64_t short_key(std::string_view s) {
  // Straight-line (no loop) so that the compiler folds it for a literal.
  const std::size_t n = s.size();
  if (n > 7) return kLongKey;
  std::uint64_t k = n;
  if (n > 0) k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[0])) << 8;
  if (n > 1) k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[1])) << 16;
  if (n > 2) k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[2])) << 24;
  if (n > 3) k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[3])) << 32;
  if (n > 4) k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[4])) << 40;
  if (n > 5) k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[5])) << 48;
  if (n > 6) k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[6])) << 56;
  return k;
}

// Tokenizes `src`. Offsets are 32-bit: callers reject inputs of 4 GiB or more.
[[nodiscard]] std::vector<Token> tokenize(std::string_view src);

[[nodiscard]] const char* kind_name(Kind k);

}  // namespace ferry::lex
