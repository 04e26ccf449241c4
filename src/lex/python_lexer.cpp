#include "lex/python_lexer.h"

#include <array>
#include <cctype>

namespace ferry::lex::py {
namespace {

bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool ident_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Length of a string prefix at `i` followed by a quote, or 0 when there is none.
std::size_t prefix_len(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (n < 3 && i + n < s.size()) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i + n])));
    if (c != 'r' && c != 'b' && c != 'u' && c != 'f') break;
    ++n;
  }
  if (i + n < s.size() && (s[i + n] == '\'' || s[i + n] == '"')) return n;
  return static_cast<std::size_t>(-1);
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    while (i_ < s_.size()) one();
    return std::move(out_);
  }

 private:
  void emit(Kind k, std::size_t begin) {
    Token t{k,
            static_cast<std::uint16_t>(depth_ > 0xffff ? 0xffff : depth_),
            static_cast<std::uint32_t>(begin),
            static_cast<std::uint32_t>(i_),
            line_,
            static_cast<std::uint32_t>(begin - line_start_ + 1)};
    out_.push_back(t);
    for (std::size_t j = begin; j < i_; ++j)
      if (s_[j] == '\n') {
        ++line_;
        line_start_ = j + 1;
      }
  }

  // Scans a string whose quote starts at i_ (prefix already consumed); `fstr` handles {fields}.
  void scan_string(bool fstr) {
    const char q = s_[i_];
    const bool triple = i_ + 2 < s_.size() && s_[i_ + 1] == q && s_[i_ + 2] == q;
    i_ += triple ? 3 : 1;
    int field = 0;  // f-string replacement-field depth
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (field > 0) {
        if (c == '\'' || c == '"') {
          scan_string(false);  // a nested string inside a replacement field
          continue;
        }
        if (c == '{') ++field;
        else if (c == '}') --field;
        else if (c == '\n' && !triple) return;  // unterminated
        ++i_;
        continue;
      }
      if (c == '\\' && i_ + 1 < s_.size()) {
        i_ += 2;  // raw strings keep the backslash, but it still protects the quote
        continue;
      }
      if (fstr && c == '{') {
        if (i_ + 1 < s_.size() && s_[i_ + 1] == '{') i_ += 2;
        else {
          ++field;
          ++i_;
        }
        continue;
      }
      if (c == q) {
        if (!triple) {
          ++i_;
          return;
        }
        if (i_ + 2 < s_.size() && s_[i_ + 1] == q && s_[i_ + 2] == q) {
          i_ += 3;
          return;
        }
      }
      if (c == '\n' && !triple) return;  // unterminated single-quoted string ends at the line
      ++i_;
    }
  }

  void one() {
    const std::size_t b = i_;
    const unsigned char c = static_cast<unsigned char>(s_[i_]);
    if (c == '\n' || (c == '\r' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n')) {
      i_ += c == '\r' ? 2 : 1;
      emit(Kind::Newline, b);
      return;
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\f' ||
                                (s_[i_] == '\r' && !(i_ + 1 < s_.size() && s_[i_ + 1] == '\n'))))
        ++i_;
      emit(Kind::Whitespace, b);
      return;
    }
    if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '\n' || s_[i_ + 1] == '\r')) {
      i_ += (s_[i_ + 1] == '\r' && i_ + 2 < s_.size() && s_[i_ + 2] == '\n') ? 3 : 2;
      emit(Kind::Continuation, b);
      return;
    }
    if (c == '#') {
      while (i_ < s_.size() && s_[i_] != '\n' && !(s_[i_] == '\r' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n')) ++i_;
      emit(Kind::Comment, b);
      return;
    }
    if (ident_start(c)) {
      const std::size_t pl = prefix_len(s_, i_);
      if (pl != static_cast<std::size_t>(-1)) {
        bool fstr = false;
        for (std::size_t j = 0; j < pl; ++j) fstr = fstr || std::tolower(static_cast<unsigned char>(s_[i_ + j])) == 'f';
        i_ += pl;
        scan_string(fstr);
        emit(Kind::String, b);
        return;
      }
      while (i_ < s_.size() && ident_char(static_cast<unsigned char>(s_[i_]))) ++i_;
      emit(Kind::Name, b);
      return;
    }
    if (c == '\'' || c == '"') {
      scan_string(false);
      emit(Kind::String, b);
      return;
    }
    if (std::isdigit(c) || (c == '.' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
      while (i_ < s_.size()) {
        const char d = s_[i_];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.') ++i_;
        else if ((d == '+' || d == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E') &&
                 !(s_[b] == '0' && b + 1 < s_.size() && (s_[b + 1] == 'x' || s_[b + 1] == 'X')))
          ++i_;
        else break;
      }
      emit(Kind::Number, b);
      return;
    }
    static constexpr std::array<std::string_view, 25> kOps = {"**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//",
                                                              "<<",  ">>",  "<=",  ">=",  "==",  "!=", "+=", "-=", "*=",
                                                              "/=",  "%=",  "&=",  "|=",  "^=",  "@=", "~"};
    for (std::string_view op : kOps)
      if (s_.substr(i_, op.size()) == op) {
        i_ += op.size();
        emit(Kind::Op, b);
        return;
      }
    if (std::string_view("()[]{},:.;@=+-*/%&|^<>!").find(static_cast<char>(c)) != std::string_view::npos) {
      if (c == '(' || c == '[' || c == '{') {
        ++i_;
        emit(Kind::Op, b);
        ++depth_;
        return;
      }
      if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
      ++i_;
      emit(Kind::Op, b);
      return;
    }
    ++i_;
    while (i_ < s_.size() && (static_cast<unsigned char>(s_[i_]) & 0xC0) == 0x80) ++i_;  // whole UTF-8 sequence
    emit(Kind::Other, b);
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::size_t depth_ = 0;
  std::uint32_t line_ = 1;
  std::size_t line_start_ = 0;
  std::vector<Token> out_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view src) { return Lexer(src).run(); }

StringParts split_string(std::string_view t) {
  StringParts p;
  std::size_t i = 0;
  while (i < t.size() && t[i] != '\'' && t[i] != '"') ++i;
  p.prefix = t.substr(0, i);
  if (i >= t.size()) {
    p.terminated = false;
    return p;
  }
  const char q = t[i];
  const bool triple = i + 2 < t.size() && t[i + 1] == q && t[i + 2] == q && t.size() >= i + 6;
  p.quote = t.substr(i, triple ? 3 : 1);
  const std::size_t body_begin = i + p.quote.size();
  if (t.size() >= body_begin + p.quote.size() && t.substr(t.size() - p.quote.size()) == p.quote) {
    p.body = t.substr(body_begin, t.size() - body_begin - p.quote.size());
  } else {
    p.body = t.substr(body_begin);
    p.terminated = false;
  }
  return p;
}

}  // namespace ferry::lex::py
