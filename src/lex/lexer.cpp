#include "lex/lexer.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>

namespace ferry::lex {

#if defined(__linux__)
namespace {
std::size_t page_rounded(std::size_t bytes) {
  static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}
}  // namespace

void* map_pages(void* old, std::size_t old_bytes, std::size_t bytes) {
  void* q = old ? ::mremap(old, page_rounded(old_bytes), page_rounded(bytes), MREMAP_MAYMOVE)
                : ::mmap(nullptr, page_rounded(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return q == MAP_FAILED ? nullptr : q;
}

void unmap_pages(void* p, std::size_t bytes) { ::munmap(p, page_rounded(bytes)); }
#else
void* map_pages(void* old, std::size_t, std::size_t bytes) { return std::realloc(old, bytes); }
void unmap_pages(void* p, std::size_t) { std::free(p); }
#endif
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

// First-byte classes: next() dispatches on one table lookup.
enum Lead : unsigned char {
  kPunct,
  kNewline,
  kCR,
  kBlank,
  kBackslash,
  kSlash,
  kHash,
  kLt,
  kDQuote,
  kSQuote,
  kDigit,
  kDot,
  kIdent
};
constexpr std::array<unsigned char, 256> kLead = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    unsigned char l = kPunct;
    if (c == '\n') l = kNewline;
    else if (c == '\r') l = kCR;
    else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') l = kBlank;
    else if (c == '\\') l = kBackslash;
    else if (c == '/') l = kSlash;
    else if (c == '#') l = kHash;
    else if (c == '<') l = kLt;
    else if (c == '"') l = kDQuote;
    else if (c == '\'') l = kSQuote;
    else if (c >= '0' && c <= '9') l = kDigit;
    else if (c == '.') l = kDot;
    else if (kClass[c] & kIdentStart) l = kIdent;
    t[c] = l;
  }
  return t;
}();

}  // namespace

// short_key of the token [begin, end), reading its bytes as one word where the buffer allows.
std::uint64_t token_key(std::string_view src, std::uint32_t begin, std::uint32_t end) {
  const std::size_t n = end - begin;
  if (n > 7) return kLongKey;
  if constexpr (std::endian::native == std::endian::little) {
    if (n > 0 && begin + 8 <= src.size()) {
      std::uint64_t w;
      std::memcpy(&w, src.data() + begin, 8);
      return n | ((w & (~0ull >> (64 - 8 * n))) << 8);
    }
  }
  return short_key(src.substr(begin, n));
}

class Lexer {
 public:
  Lexer(std::string_view src, TokenList& out, CodeIndex* code) : src_(src), out_(out), code_(code) {}

  void run() {
    const std::size_t n = src_.size();
    // A token has a byte at least, so n + 1 entries never grow (up to a bound on what is
    // reserved at once): only the pages written are touched, and shrink_to_fit below hands back
    // the rest without copying.
    const std::size_t room = std::min<std::size_t>(n + 1, std::size_t{1} << 26);
    out_.begin_.reserve(room + 1);
    out_.line_.reserve(room);
    out_.kind_.reserve(room);
    out_.line_start_.reserve(room);
    out_.line_start_.push_back(0);
    if (code_) {
      code_->token.reserve(room);
      code_->key.reserve(room);
      code_->partner.reserve(room);
    }
    while (pos_ < n) {
      const std::uint32_t start = pos_;
      const std::uint32_t line = line_;
      const Kind kind = next();
      const bool dir = in_directive_ || directive_token_;
      out_.begin_.push_back(start);
      out_.line_.push_back(line);
      out_.kind_.push_back(static_cast<std::uint8_t>(static_cast<unsigned>(kind) | (dir ? 0x80u : 0u)));
      directive_token_ = false;
      if (kind == Kind::Newline) {
        in_directive_ = false;
        at_line_start_ = true;
        expect_header_ = false;
      } else if (!is_trivia(kind)) {
        at_line_start_ = false;
        if (code_) add_code(kind, dir, start);
      }
    }
    out_.begin_.push_back(pos_);
    out_.begin_.shrink_to_fit();
    out_.line_.shrink_to_fit();
    out_.kind_.shrink_to_fit();
    out_.line_start_.shrink_to_fit();
    if (code_) {
      code_->token.shrink_to_fit();
      code_->key.shrink_to_fit();
      code_->partner.shrink_to_fit();
    }
  }

 private:
  // The code token just lexed, [start, pos_): its index entry, and its bracket partner. One stack
  // for code, one for the directive being read (reset at each '#', so a directive's brackets
  // never pair with code or another directive's).
  void add_code(Kind kind, bool dir, std::uint32_t start) {
    const auto ci = static_cast<std::uint32_t>(code_->token.size());
    code_->token.push_back(static_cast<std::uint32_t>(out_.kind_.size() - 1));
    code_->key.push_back(token_key(src_, start, pos_));
    code_->partner.push_back(CodeIndex::kNoPartner);
    if (kind != Kind::Punct || pos_ - start != 1) return;
    std::vector<std::uint32_t>& st = dir ? dir_stack_ : code_stack_;
    const char c = src_[start];
    if (dir && c == '#') dir_stack_.clear();
    if (c == '(' || c == '[' || c == '{') {
      st.push_back(ci);
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      // tolerate stray closers: pop to the matching kind if it is on the stack
      auto it = std::find_if(st.rbegin(), st.rend(),
                             [&](std::uint32_t o) { return src_[out_.begin_[code_->token[o]]] == want; });
      if (it == st.rend()) return;
      const std::uint32_t open = *it;
      st.erase(std::next(it).base(), st.end());
      code_->partner[open] = ci;
      code_->partner[ci] = open;
    }
  }

  [[nodiscard]] unsigned char peek(std::size_t off = 0) const {
    const std::size_t p = pos_ + off;
    return p < src_.size() ? static_cast<unsigned char>(src_[p]) : '\0';
  }
  [[nodiscard]] bool starts_with(std::string_view s) const { return src_.substr(pos_, s.size()) == s; }

  // Ends a token that holds no newline (identifiers, numbers, punctuators).
  void skip_to(std::size_t end) { pos_ = static_cast<std::uint32_t>(end); }

  void newline_at(std::size_t i) {
    ++line_;
    out_.line_start_.push_back(static_cast<std::uint32_t>(i + 1));
  }

  // Counts the newlines of a token that spans lines (comments, raw strings, continuations).
  void advance_to(std::size_t end) {
    const char* const base = src_.data();
    for (const char* q = base + pos_; (q = static_cast<const char*>(std::memchr(q, '\n', base + end - q)));) {
      newline_at(static_cast<std::size_t>(q - base));
      ++q;
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

  Kind whitespace() {
    std::size_t p = pos_;
    const std::size_t n = src_.size();
    bool continued = false;  // only a continuation brings a newline into whitespace
    for (;;) {
      if (p < n && kLead[static_cast<unsigned char>(src_[p])] == kBlank) {
        ++p;
      } else if (p < n && src_[p] == '\r' && !(p + 1 < n && src_[p + 1] == '\n')) {
        ++p;
      } else if (const std::size_t k = continuation_at(p)) {
        p += k;
        continued = true;
      } else {
        break;
      }
    }
    if (continued) advance_to(p);
    else skip_to(p);
    return Kind::Whitespace;
  }

  Kind next() {
    const unsigned char c = static_cast<unsigned char>(src_[pos_]);
    switch (kLead[c]) {
      case kNewline:
        newline_at(pos_);
        ++pos_;
        return Kind::Newline;
      case kCR:
        if (peek(1) == '\n') {
          newline_at(pos_ + 1);
          pos_ += 2;
          return Kind::Newline;
        }
        return whitespace();
      case kBlank: return whitespace();
      case kBackslash:
        if (continuation_at(pos_)) return whitespace();
        return punct();
      case kSlash:
        if (peek(1) == '/') return line_comment();
        if (peek(1) == '*') {
          const std::size_t close = src_.find("*/", pos_ + 2);
          advance_to(close == std::string_view::npos ? src_.size() : close + 2);
          return Kind::BlockComment;
        }
        return punct();
      case kHash:
        if (at_line_start_ && !in_directive_) {
          in_directive_ = true;
          directive_token_ = true;
          skip_to(pos_ + 1);
          check_include_ = true;
          return Kind::Punct;
        }
        return punct();
      case kLt:
        if (expect_header_ && header_name()) return Kind::HeaderName;
        return punct();
      case kDQuote:
        if (expect_header_ && header_name()) return Kind::HeaderName;
        return quoted(pos_, '"', Kind::String);
      case kSQuote: return quoted(pos_, '\'', Kind::Char);
      case kDigit: return number();
      case kDot:
        if (is_digit(peek(1))) return number();
        return punct();
      case kIdent: return identifier_or_literal();
      default: return punct();
    }
  }

  Kind line_comment() {
    // A line comment continues over backslash-newlines, as in the preprocessor.
    std::size_t p = pos_ + 2;
    bool continued = false;
    const std::size_t n = src_.size();
    while (p < n) {
      // to the next byte that can end the comment or continue it
      const void* hit = std::memchr(src_.data() + p, '\n', n - p);
      const std::size_t nl = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - src_.data()) : n;
      // the newline ends it unless a backslash (or backslash, CR) continues it
      std::size_t e = nl;
      if (e < n && e > p && src_[e - 1] == '\r') --e;  // "\r\n"
      if (nl < n && e > p && src_[e - 1] == '\\') {
        p = nl + 1;  // a continuation: the comment goes on
        continued = true;
        continue;
      }
      p = e;
      break;
    }
    if (continued) advance_to(p);
    else skip_to(p);
    return Kind::LineComment;
  }

  // `#include <path>` or `"path"`: true (and the token taken) when it closes on its line.
  bool header_name() {
    expect_header_ = false;
    const char close = src_[pos_] == '<' ? '>' : '"';
    std::size_t p = pos_ + 1;
    while (p < src_.size() && src_[p] != close && src_[p] != '\n') ++p;
    if (p < src_.size() && src_[p] == close) {
      skip_to(p + 1);
      return true;
    }
    return false;  // malformed: lexed as ordinary tokens
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
  TokenList& out_;
  CodeIndex* code_;
  std::vector<std::uint32_t> code_stack_, dir_stack_;
  std::uint32_t pos_ = 0;
  std::uint32_t line_ = 1;
  int launch_depth_ = 0;
  bool at_line_start_ = true;
  bool in_directive_ = false;
  bool directive_token_ = false;
  bool check_include_ = false;
  bool expect_header_ = false;
};

TokenList lex(std::string_view src, CodeIndex* code) {
  TokenList out;
  Lexer(src, out, code).run();
  return out;
}

std::vector<Token> tokenize(std::string_view src) {
  const TokenList l = lex(src, nullptr);
  std::vector<Token> out;
  out.reserve(l.size());
  for (const Token& t : l) out.push_back(t);
  return out;
}

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
