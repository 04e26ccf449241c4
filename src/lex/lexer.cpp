#include "lex/lexer.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
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

// The end of the identifier bytes from `q` (at most `e`). Sixteen bytes at a time where SSE2 is
// there (x86-64 always has it): names average 7 bytes, so most take one block, not a loop per byte.
[[gnu::always_inline]] inline const unsigned char* ident_end(const unsigned char* q, const unsigned char* e) {
#if defined(__SSE2__)
  while (e - q >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    // a-z and A-Z (folded to lower case by 0x20), 0-9, '_', '$'; bytes of 0x80 and up are the
    // sign bits, read by the same movemask
    const __m128i letter = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    const __m128i digit = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const __m128i cont =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(letter, _mm_set1_epi8(25)), letter),
                                  _mm_cmpeq_epi8(_mm_min_epu8(digit, _mm_set1_epi8(9)), digit)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')), _mm_cmpeq_epi8(v, _mm_set1_epi8('$'))));
    const unsigned stop = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(cont, v))) & 0xffffu;
    if (stop != 0) return q + std::countr_zero(stop);
    q += 16;
  }
#endif
  while (q < e && is_ident_cont(*q)) ++q;
  return q;
}

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
  kIdent,
  kSingle  // a punctuator that is one byte whatever follows: ( ) [ ] { } ; , ? ~
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
    else if (std::string_view("()[]{};,?~").find(static_cast<char>(c)) != std::string_view::npos) l = kSingle;
    t[c] = l;
  }
  return t;
}();

// One byte punctuators: any other byte that reaches punct() is Kind::Other.
constexpr std::array<bool, 256> kSinglePunct = [] {
  std::array<bool, 256> t{};
  for (const char c : std::string_view("{}[]()<>;:,.?~!+-*/%^&|=#\\")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

// The one-byte code tokens the bracket pairing reads: brackets, and the '#' that starts a directive.
constexpr std::array<bool, 256> kPairing = [] {
  std::array<bool, 256> t{};
  for (const char c : std::string_view("()[]{}#")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

// short_key of the token [begin, end), reading its bytes as one word where the buffer allows.
[[gnu::always_inline]] inline std::uint64_t token_key(std::string_view src, std::uint32_t begin, std::uint32_t end) {
  const std::size_t n = end - begin;
  if (n > 7) return kLongKey;
  if constexpr (std::endian::native == std::endian::little) {
    if (begin + 8 <= src.size()) {  // n > 0: a token has a byte at least
      std::uint64_t w;
      std::memcpy(&w, src.data() + begin, 8);
      return n | ((w & (~0ull >> (64 - 8 * n))) << 8);
    }
  }
  return short_key(src.substr(begin, n));
}

}  // namespace

class Lexer {
 public:
  Lexer(std::string_view src, TokenList& out, CodeIndex* code)
      : src_(src), s_(reinterpret_cast<const unsigned char*>(src.data())), n_(src.size()), out_(out), code_(code) {}

  void run() {
    const std::size_t n = n_;
    // A token has a byte at least, so n + 1 entries never grow (up to a bound on what is
    // reserved at once): only the pages written are touched, and shrink_to_fit below hands back
    // the rest without copying. The arrays are sized to that room and written through plain
    // pointers (no size or capacity to update per token), then cut to what was written.
    cap_ = std::min<std::size_t>(n + 1, std::size_t{1} << 26);
    size_arrays();
    out_.line_start_.reserve(cap_);
    out_.line_start_.push_back(0);
    // The common tokens (a run of blanks, a newline, an identifier, a bracket or other one-byte
    // punctuator) are taken here, each with only the bookkeeping its kind needs; the rest go
    // through next() and put().
    std::size_t count = 0;   // tokens written
    std::uint32_t code = 0;  // code tokens written
    while (pos_ < n) {
      if (count == cap_) [[unlikely]]
        grow();
      const std::uint32_t start = pos_;
      const unsigned char c = s_[start];
      switch (kLead[c]) {
        case kBlank: {
          std::size_t p = start + 1;
          while (p < n && kLead[s_[p]] == kBlank) ++p;
          if (p < n && (s_[p] == '\r' || s_[p] == '\\')) [[unlikely]]
            break;  // a CR or a continuation: whitespace_rest, through next()
          pos_ = static_cast<std::uint32_t>(p);
          put_token(count, start, line_, Kind::Whitespace);
          continue;
        }
        case kNewline:
          put_token(count, start, line_, Kind::Newline);
          newline_at(start);
          pos_ = start + 1;
          in_directive_ = false;
          at_line_start_ = true;
          expect_header_ = false;
          continue;
        case kIdent: {
          const unsigned char* const e = s_ + n;
          const unsigned char* const q = ident_end(s_ + start + 1, e);
          if ((q < e && (*q == '"' || *q == '\'')) || check_include_) [[unlikely]]
            break;  // a literal's prefix, or the word after '#': identifier_or_literal, through next()
          pos_ = static_cast<std::uint32_t>(q - s_);
          put_code(count, code, start, line_, Kind::Identifier);
          continue;
        }
        case kSingle: {  // ( ) [ ] { } ; , ? ~: never the start of a longer punctuator
          pos_ = start + 1;
          check_include_ = false;
          if (c == ';') launch_depth_ = 0;  // an unclosed launch never spans statements
          put_code(count, code, start, line_, Kind::Punct);
          if (code_ && kPairing[c]) pair(in_directive_, c, code - 1);
          continue;
        }
        default: break;
      }
      const std::uint32_t line = line_;
      const Kind kind = next();
      put(count, code, start, line, kind);
    }
    tok_begin_[count] = pos_;
    out_.begin_.resize_uninitialized(count + 1);
    out_.line_.resize_uninitialized(count);
    out_.kind_.resize_uninitialized(count);
    out_.begin_.shrink_to_fit();
    out_.line_.shrink_to_fit();
    out_.kind_.shrink_to_fit();
    out_.line_start_.shrink_to_fit();
    if (code_) {
      code_->token.resize_uninitialized(code);
      code_->key.resize_uninitialized(code);
      code_->partner.resize_uninitialized(code);
      code_->token.shrink_to_fit();
      code_->key.shrink_to_fit();
      code_->partner.shrink_to_fit();
    }
  }

 private:
  struct Open {
    std::uint32_t ci;  // code index of an open bracket
    unsigned char c;   // '(', '[' or '{'
  };

  // Token `count` (then counted): `kind` from `start` on `line`; it ends where the next starts.
  [[gnu::always_inline]] void put_token(std::size_t& count, std::uint32_t start, std::uint32_t line, Kind kind) {
    tok_begin_[count] = start;
    tok_line_[count] = line;
    tok_kind_[count] = static_cast<std::uint8_t>(static_cast<unsigned>(kind) | (in_directive_ ? 0x80u : 0u));
    ++count;
  }
  // A code token from `start` (on `line`) to pos_, with its code index entry.
  [[gnu::always_inline]] void put_code(std::size_t& count, std::uint32_t& code, std::uint32_t start, std::uint32_t line,
                                       Kind kind) {
    put_token(count, start, line, kind);
    at_line_start_ = false;
    if (code_) {
      code_token_[code] = static_cast<std::uint32_t>(count - 1);
      // (a one-byte token's key, most punctuators', without the word read)
      code_key_[code] = pos_ - start == 1 ? 1u | (std::uint64_t{s_[start]} << 8) : token_key(src_, start, pos_);
      code_partner_[code] = CodeIndex::kNoPartner;
      ++code;
    }
  }
  // Any token that next() read: its code index entry and bracket partner (one stack for code,
  // one for the directive being read, reset at each '#', so a directive's brackets never pair
  // with code or another directive's), and the line state.
  [[gnu::always_inline]] void put(std::size_t& count, std::uint32_t& code, std::uint32_t start, std::uint32_t line,
                                  Kind kind) {
    if (kind == Kind::Newline) {
      put_token(count, start, line, kind);
      in_directive_ = false;
      at_line_start_ = true;
      expect_header_ = false;
    } else if (is_trivia(kind)) {
      put_token(count, start, line, kind);
    } else {
      put_code(count, code, start, line, kind);
      if (code_ && kind == Kind::Punct && pos_ - start == 1 && kPairing[s_[start]])
        pair(in_directive_, s_[start], code - 1);
    }
  }

  // Every array holds cap_ entries (the token starts one more, for the end), the code arrays as
  // many: there are never more code tokens than tokens.
  void size_arrays() {
    out_.begin_.resize_uninitialized(cap_ + 1);
    out_.line_.resize_uninitialized(cap_);
    out_.kind_.resize_uninitialized(cap_);
    tok_begin_ = out_.begin_.data();
    tok_line_ = out_.line_.data();
    tok_kind_ = out_.kind_.data();
    if (code_) {
      code_->token.resize_uninitialized(cap_);
      code_->key.resize_uninitialized(cap_);
      code_->partner.resize_uninitialized(cap_);
      code_token_ = code_->token.data();
      code_key_ = code_->key.data();
      code_partner_ = code_->partner.data();
    }
  }
  void grow() {
    cap_ += cap_ / 2;
    size_arrays();
  }

  // Code token `ci`, the one-byte punctuator `c` (a bracket or '#'): pairs a closer with the
  // nearest open bracket of its kind on the stack (a stray closer pairs with nothing). Inline for
  // the common cases: an opener, and a closer of the bracket on top.
  [[gnu::always_inline]] void pair(bool dir, unsigned char c, std::uint32_t ci) {
    std::vector<Open>& st = dir ? dir_stack_ : code_stack_;
    if (c == '#') {
      if (dir) dir_stack_.clear();
      return;
    }
    if (c == '(' || c == '[' || c == '{') {
      st.push_back({ci, c});
      return;
    }
    const unsigned char want = c == ')' ? '(' : c == ']' ? '[' : '{';
    if (!st.empty() && st.back().c == want) {
      const std::uint32_t open = st.back().ci;
      st.pop_back();
      code_partner_[open] = ci;
      code_partner_[ci] = open;
      return;
    }
    pair_below(st, want, ci);
  }
  // A closer whose opener is below the top of the stack, or nowhere: the openers above it are
  // left unpaired.
  [[gnu::noinline]] void pair_below(std::vector<Open>& st, unsigned char want, std::uint32_t ci) {
    std::size_t k = st.size();
    while (k > 0 && st[k - 1].c != want) --k;
    if (k == 0) return;
    const std::uint32_t open = st[k - 1].ci;
    st.resize(k - 1);
    code_partner_[open] = ci;
    code_partner_[ci] = open;
  }

  [[nodiscard]] unsigned char peek(std::size_t off = 0) const {
    const std::size_t p = pos_ + off;
    return p < n_ ? s_[p] : '\0';
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
    if (p < n_ && s_[p] == '\\') {
      if (p + 1 < n_ && s_[p + 1] == '\n') return 2;
      if (p + 2 < n_ && s_[p + 1] == '\r' && s_[p + 2] == '\n') return 3;
    }
    return 0;
  }

  // Blanks, lone CRs and continuations. The common run of blanks is one tight loop; a CR or a
  // backslash after it takes the general one.
  Kind whitespace() {
    std::size_t p = pos_;
    while (p < n_ && kLead[s_[p]] == kBlank) ++p;
    if (p < n_ && (s_[p] == '\r' || s_[p] == '\\')) [[unlikely]]
      return whitespace_rest(p);
    skip_to(p);
    return Kind::Whitespace;
  }
  [[gnu::noinline]] Kind whitespace_rest(std::size_t p) {
    const std::size_t n = n_;
    bool continued = false;  // only a continuation brings a newline into whitespace
    for (;;) {
      if (p < n && kLead[s_[p]] == kBlank) {
        ++p;
      } else if (p < n && s_[p] == '\r' && !(p + 1 < n && s_[p + 1] == '\n')) {
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

  [[gnu::always_inline]] Kind next() {
    const unsigned char c = s_[pos_];
    switch (kLead[c]) {
      case kNewline:
        newline_at(pos_);
        ++pos_;
        return Kind::Newline;
      case kIdent: return identifier_or_literal();
      case kBlank: return whitespace();
      case kCR:
        if (peek(1) == '\n') {
          newline_at(pos_ + 1);
          pos_ += 2;
          return Kind::Newline;
        }
        return whitespace();
      case kBackslash:
        if (continuation_at(pos_)) return whitespace();
        return punct();
      case kSlash:
        if (peek(1) == '/') return line_comment();
        if (peek(1) == '*') {
          const std::size_t close = src_.find("*/", pos_ + 2);
          advance_to(close == std::string_view::npos ? n_ : close + 2);
          return Kind::BlockComment;
        }
        return punct();
      case kHash:
        if (at_line_start_ && !in_directive_) {
          in_directive_ = true;
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
      default: return punct();
    }
  }

  Kind line_comment() {
    // A line comment continues over backslash-newlines, as in the preprocessor.
    std::size_t p = pos_ + 2;
    bool continued = false;
    const std::size_t n = n_;
    while (p < n) {
      // to the next byte that can end the comment or continue it
      const void* hit = std::memchr(src_.data() + p, '\n', n - p);
      const std::size_t nl = hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - src_.data()) : n;
      // the newline ends it unless a backslash (or backslash, CR) continues it
      std::size_t e = nl;
      if (e < n && e > p && s_[e - 1] == '\r') --e;  // "\r\n"
      if (nl < n && e > p && s_[e - 1] == '\\') {
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
    while (p < n_ && src_[p] != close && src_[p] != '\n') ++p;
    if (p < n_ && src_[p] == close) {
      skip_to(p + 1);
      return true;
    }
    return false;  // malformed: lexed as ordinary tokens
  }

  Kind number() {
    std::size_t p = pos_ + 1;
    while (p < n_) {
      const unsigned char ch = s_[p];
      if (is_ident_cont(ch) || ch == '.') {
        ++p;
      } else if ((ch == '+' || ch == '-') &&
                 (s_[p - 1] == 'e' || s_[p - 1] == 'E' || s_[p - 1] == 'p' || s_[p - 1] == 'P')) {
        ++p;
      } else if (ch == '\'' && p + 1 < n_ && is_ident_cont(s_[p + 1])) {
        p += 2;  // digit separator
      } else {
        break;
      }
    }
    skip_to(p);
    return Kind::Number;
  }

  // An identifier, or the encoding prefix of a literal (u8"..", R"(..)", L'x').
  Kind identifier_or_literal() {
    const unsigned char* q = s_ + pos_ + 1;  // the first byte starts an identifier
    const unsigned char* const e = s_ + n_;
    while (q < e && is_ident_cont(*q)) ++q;
    const std::size_t p = static_cast<std::size_t>(q - s_);
    if (q < e && (*q == '"' || *q == '\'')) [[unlikely]] {
      const std::string_view word = src_.substr(pos_, p - pos_);
      if (*q == '"') {
        if (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR") return raw_string(p);
        if (word == "u8" || word == "u" || word == "U" || word == "L") return quoted(p, '"', Kind::String);
      } else if (word == "u8" || word == "u" || word == "U" || word == "L") {
        return quoted(p, '\'', Kind::Char);
      }
    }
    if (check_include_) {
      check_include_ = false;
      const std::string_view word = src_.substr(pos_, p - pos_);
      expect_header_ = word == "include" || word == "include_next" || word == "import";
    }
    skip_to(p);
    return Kind::Identifier;
  }

  // A user-defined-literal suffix after a closing quote at `p`: its end, or `p` when there is none.
  // A name starting with "__" is reserved, so it is never a suffix: `extern "C"__global__` is two
  // tokens, as nvcc reads it (clang rejects the text; the hip target inserts a space).
  std::size_t literal_suffix_end(std::size_t p) const {
    if (src_.substr(p, 2) == "__") return p;
    while (p < n_ && is_ident_cont(s_[p])) ++p;
    return p;
  }

  // A quoted literal whose opening quote is at `open`; ends at the closing quote, or before the
  // newline of an unterminated literal. Absorbs a user-defined-literal suffix.
  Kind quoted(std::size_t open, char quote, Kind kind) {
    std::size_t p = open + 1;
    while (p < n_ && src_[p] != quote && src_[p] != '\n') {
      if (src_[p] == '\\' && p + 1 < n_) {
        p += (src_[p + 1] == '\r' && p + 2 < n_ && src_[p + 2] == '\n') ? 3 : 2;
      } else {
        ++p;
      }
    }
    if (p < n_ && src_[p] == quote) p = literal_suffix_end(p + 1);
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
    const std::size_t p = close == std::string_view::npos ? n_ : literal_suffix_end(close + closing.size());
    advance_to(p);
    return Kind::RawString;
  }

  // Length of the multi-character punctuator starting with bytes c, d, e, or 1.
  [[nodiscard]] static std::size_t punct_length(unsigned char c, unsigned char d, unsigned char e) {
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
    const unsigned char c = s_[pos_], d = peek(1), e = peek(2);
    if (c == '<' && d == '<' && e == '<' && peek(3) != '=') {
      ++launch_depth_;
      skip_to(pos_ + 3);
      return Kind::LaunchOpen;
    }
    if (launch_depth_ > 0 && c == '>' && d == '>' && e == '>') {
      --launch_depth_;
      skip_to(pos_ + 3);
      return Kind::LaunchClose;
    }
    if (const std::size_t len = punct_length(c, d, e); len > 1) {
      skip_to(pos_ + len);
      return Kind::Punct;
    }
    skip_to(pos_ + 1);
    if (c == ';') launch_depth_ = 0;  // an unclosed launch never spans statements
    return kSinglePunct[c] ? Kind::Punct : Kind::Other;
  }

  std::string_view src_;
  const unsigned char* s_;  // src_'s bytes
  std::size_t n_;           // src_'s size
  TokenList& out_;
  CodeIndex* code_;
  // The arrays being written (size_arrays), each with room for cap_ entries.
  std::size_t cap_ = 0;
  std::uint32_t* tok_begin_ = nullptr;
  std::uint32_t* tok_line_ = nullptr;
  std::uint8_t* tok_kind_ = nullptr;
  std::uint32_t* code_token_ = nullptr;
  std::uint64_t* code_key_ = nullptr;
  std::uint32_t* code_partner_ = nullptr;
  std::vector<Open> code_stack_, dir_stack_;
  std::uint32_t pos_ = 0;
  std::uint32_t line_ = 1;
  int launch_depth_ = 0;
  bool at_line_start_ = true;
  bool in_directive_ = false;
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
