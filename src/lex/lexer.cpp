#include "lex/lexer.h"

#include <array>
#include <string>
#include <string_view>

namespace ferry::lex {
namespace {

// Character classes as one table lookup: identifiers are most of the bytes of a source file.
constexpr unsigned char kIdentStart = 1, kIdentCont = 2;
constexpr std::array<unsigned char, 256> kClass = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
    t[c] = static_cast<unsigned char>((start ? kIdentStart | kIdentCont : 0) | (c >= '0' && c <= '9' ? kIdentCont : 0));
  }
  return t;
}();
constexpr bool is_ident_start(unsigned char c) { return kClass[c] & kIdentStart; }
constexpr bool is_ident_cont(unsigned char c) { return kClass[c] & kIdentCont; }
constexpr bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    out.reserve(src_.size() / 3 + 16);
    while (pos_ < src_.size()) {
      const std::uint32_t start = pos_;
      const std::uint32_t line = line_;
      const std::uint32_t col = start - line_start_ + 1;
      const Kind kind = next();
      out.push_back(Token{kind, in_directive_ || directive_token_, start, pos_, line, col});
      directive_token_ = false;
      if (kind == Kind::Newline) {
        in_directive_ = false;
        at_line_start_ = true;
        expect_header_ = false;
      } else if (!is_trivia(kind)) {
        at_line_start_ = false;
      }
    }
    return out;
  }

 private:
  [[nodiscard]] unsigned char peek(std::size_t off = 0) const {
    const std::size_t p = pos_ + off;
    return p < src_.size() ? static_cast<unsigned char>(src_[p]) : '\0';
  }
  [[nodiscard]] bool starts_with(std::string_view s) const { return src_.substr(pos_, s.size()) == s; }

  // Ends a token that holds no newline (identifiers, numbers, punctuators).
  void skip_to(std::size_t end) { pos_ = static_cast<std::uint32_t>(end); }

  // Counts the newlines of a token that spans lines (comments, raw strings, continuations).
  void advance_to(std::size_t end) {
    for (std::size_t i = pos_; i < end; ++i) {
      if (src_[i] == '\n') {
        ++line_;
        line_start_ = static_cast<std::uint32_t>(i + 1);
      }
    }
    pos_ = static_cast<std::uint32_t>(end);
  }

  // Length of a backslash-newline continuation at `p`, or 0.
  [[nodiscard]] std::size_t continuation_at(std::size_t p) const {
    if (p < src_.size() && src_[p] == '\\') {
      if (p + 1 < src_.size() && src_[p + 1] == '\n') return 2;
      if (p + 2 < src_.size() && src_[p + 1] == '\r' && src_[p + 2] == '\n') return 3;
    }
    return 0;
  }

  Kind next() {
    const unsigned char c = peek();
    if (c == '\n') {
      ++line_;
      line_start_ = ++pos_;
      return Kind::Newline;
    }
    if (c == '\r' && peek(1) == '\n') {
      advance_to(pos_ + 2);
      return Kind::Newline;
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r' || continuation_at(pos_)) {
      std::size_t p = pos_;
      bool continued = false;  // only a continuation brings a newline into whitespace
      for (;;) {
        if (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t' || src_[p] == '\f' || src_[p] == '\v' ||
                                (src_[p] == '\r' && !(p + 1 < src_.size() && src_[p + 1] == '\n')))) {
          ++p;
        } else if (const std::size_t n = continuation_at(p)) {
          p += n;
          continued = true;
        } else {
          break;
        }
      }
      if (continued) advance_to(p);
      else skip_to(p);
      return Kind::Whitespace;
    }
    if (c == '/' && peek(1) == '/') {
      // A line comment continues over backslash-newlines, as in the preprocessor.
      std::size_t p = pos_ + 2;
      bool continued = false;
      while (p < src_.size()) {
        if (const std::size_t n = continuation_at(p)) {
          p += n;
          continued = true;
          continue;
        }
        if (src_[p] == '\n' || (src_[p] == '\r' && p + 1 < src_.size() && src_[p + 1] == '\n')) break;
        ++p;
      }
      if (continued) advance_to(p);
      else skip_to(p);
      return Kind::LineComment;
    }
    if (c == '/' && peek(1) == '*') {
      const std::size_t close = src_.find("*/", pos_ + 2);
      advance_to(close == std::string_view::npos ? src_.size() : close + 2);
      return Kind::BlockComment;
    }
    if (c == '#' && at_line_start_ && !in_directive_) {
      in_directive_ = true;
      directive_token_ = true;
      skip_to(pos_ + 1);
      check_include_ = true;
      return Kind::Punct;
    }
    if (expect_header_ && (c == '<' || c == '"')) {
      expect_header_ = false;
      const char close = c == '<' ? '>' : '"';
      std::size_t p = pos_ + 1;
      while (p < src_.size() && src_[p] != close && src_[p] != '\n') ++p;
      if (p < src_.size() && src_[p] == close) {
        skip_to(p + 1);
        return Kind::HeaderName;
      }
      // Malformed: fall through and lex it as ordinary tokens.
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number();
    if (is_ident_start(c)) return identifier_or_literal();
    if (c == '"') return quoted(pos_, '"', Kind::String);
    if (c == '\'') return quoted(pos_, '\'', Kind::Char);
    return punct();
  }

  Kind number() {
    std::size_t p = pos_ + 1;
    while (p < src_.size()) {
      const auto ch = static_cast<unsigned char>(src_[p]);
      if ((ch == '+' || ch == '-') &&
          (src_[p - 1] == 'e' || src_[p - 1] == 'E' || src_[p - 1] == 'p' || src_[p - 1] == 'P')) {
        ++p;
      } else if (is_ident_cont(ch) || ch == '.') {
        ++p;
      } else if (ch == '\'' && p + 1 < src_.size() && is_ident_cont(static_cast<unsigned char>(src_[p + 1]))) {
        p += 2;  // digit separator
      } else {
        break;
      }
    }
    skip_to(p);
    return Kind::Number;
  }

  Kind identifier_or_literal() {
    std::size_t p = pos_;
    while (p < src_.size() && is_ident_cont(static_cast<unsigned char>(src_[p]))) ++p;
    const std::string_view word = src_.substr(pos_, p - pos_);
    const char after = p < src_.size() ? src_[p] : '\0';
    if (after == '"') {
      if (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR") return raw_string(p);
      if (word == "u8" || word == "u" || word == "U" || word == "L") return quoted(p, '"', Kind::String);
    }
    if (after == '\'' && (word == "u8" || word == "u" || word == "U" || word == "L"))
      return quoted(p, '\'', Kind::Char);
    skip_to(p);
    if (check_include_) {
      check_include_ = false;
      expect_header_ = word == "include" || word == "include_next" || word == "import";
    }
    return Kind::Identifier;
  }

  // A user-defined-literal suffix after a closing quote at `p`: its end, or `p` when there is none.
  // A name starting with "__" is reserved, so it is never a suffix: `extern "C"__global__` is two
  // tokens, as nvcc reads it (clang rejects the text; the hip target inserts a space).
  std::size_t literal_suffix_end(std::size_t p) const {
    if (src_.substr(p, 2) == "__") return p;
    while (p < src_.size() && is_ident_cont(static_cast<unsigned char>(src_[p]))) ++p;
    return p;
  }

  // A quoted literal whose opening quote is at `open`; ends at the closing quote, or before the
  // newline of an unterminated literal. Absorbs a user-defined-literal suffix.
  Kind quoted(std::size_t open, char quote, Kind kind) {
    std::size_t p = open + 1;
    while (p < src_.size() && src_[p] != quote && src_[p] != '\n') {
      if (src_[p] == '\\' && p + 1 < src_.size()) {
        p += (src_[p + 1] == '\r' && p + 2 < src_.size() && src_[p + 2] == '\n') ? 3 : 2;
      } else {
        ++p;
      }
    }
    if (p < src_.size() && src_[p] == quote) p = literal_suffix_end(p + 1);
    advance_to(p);
    return kind;
  }

  Kind raw_string(std::size_t quote) {
    const std::size_t paren = src_.find('(', quote + 1);
    if (paren == std::string_view::npos || paren - quote - 1 > 16) {
      return quoted(quote, '"', Kind::String);  // not a valid raw string: lex leniently
    }
    std::string closing = ")";
    closing.append(src_.substr(quote + 1, paren - quote - 1));
    closing.push_back('"');
    const std::size_t close = src_.find(closing, paren + 1);
    const std::size_t p = close == std::string_view::npos ? src_.size() : literal_suffix_end(close + closing.size());
    advance_to(p);
    return Kind::RawString;
  }

  // Length of the multi-character punctuator at pos_, or 1. Dispatches on the first byte: this
  // is the lexer's hottest path after identifiers.
  [[nodiscard]] std::size_t punct_length() const {
    const unsigned char c = peek(), d = peek(1), e = peek(2);
    switch (c) {
      case '>': return d == '>' ? (e == '=' ? 3 : 2) : d == '=' ? 2 : 1;
      case '<': return d == '<' ? (e == '=' ? 3 : 2) : d == '=' ? (e == '>' ? 3 : 2) : 1;
      case '-': return d == '>' ? (e == '*' ? 3 : 2) : (d == '-' || d == '=') ? 2 : 1;
      case '.': return (d == '.' && e == '.') ? 3 : d == '*' ? 2 : 1;
      case ':': return d == ':' ? 2 : 1;
      case '+': return (d == '+' || d == '=') ? 2 : 1;
      case '&': return (d == '&' || d == '=') ? 2 : 1;
      case '|': return (d == '|' || d == '=') ? 2 : 1;
      case '=':
      case '!':
      case '*':
      case '/':
      case '%':
      case '^': return d == '=' ? 2 : 1;
      case '#': return d == '#' ? 2 : 1;
      default: return 1;
    }
  }

  Kind punct() {
    check_include_ = false;
    if (peek() == '<' && starts_with("<<<") && !starts_with("<<<=")) {
      ++launch_depth_;
      skip_to(pos_ + 3);
      return Kind::LaunchOpen;
    }
    if (launch_depth_ > 0 && peek() == '>' && starts_with(">>>")) {
      --launch_depth_;
      skip_to(pos_ + 3);
      return Kind::LaunchClose;
    }
    if (const std::size_t n = punct_length(); n > 1) {
      skip_to(pos_ + n);
      return Kind::Punct;
    }
    const unsigned char c = peek();
    skip_to(pos_ + 1);
    if (c == ';') launch_depth_ = 0;  // an unclosed launch never spans statements
    static constexpr std::string_view kSingle = "{}[]()<>;:,.?~!+-*/%^&|=#\\";
    return kSingle.find(static_cast<char>(c)) != std::string_view::npos ? Kind::Punct : Kind::Other;
  }

  std::string_view src_;
  std::uint32_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t line_start_ = 0;
  int launch_depth_ = 0;
  bool at_line_start_ = true;
  bool in_directive_ = false;
  bool directive_token_ = false;
  bool check_include_ = false;
  bool expect_header_ = false;
};

}  // namespace

std::vector<Token> tokenize(std::string_view src) { return Lexer(src).run(); }

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Whitespace: return "whitespace";
    case Kind::Newline: return "newline";
    case Kind::LineComment: return "line-comment";
    case Kind::BlockComment: return "block-comment";
    case Kind::Identifier: return "identifier";
    case Kind::Number: return "number";
    case Kind::String: return "string";
    case Kind::RawString: return "raw-string";
    case Kind::Char: return "char";
    case Kind::HeaderName: return "header-name";
    case Kind::Punct: return "punct";
    case Kind::LaunchOpen: return "launch-open";
    case Kind::LaunchClose: return "launch-close";
    case Kind::Other: return "other";
  }
  return "?";
}

}  // namespace ferry::lex
