// Lossless lexer for C, C++, CUDA and HIP sources.
//
// Every byte of the input belongs to exactly one token, trivia included, so concatenating the
// token texts reproduces the file. The lexer never fails: bytes it cannot classify become
// `Kind::Other` tokens. It knows just enough of the preprocessor to mark directive lines and
// to treat `#include <...>` paths as one token, and just enough CUDA to tell a kernel launch's
// `<<<`/`>>>` from shifts and nested template closers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>
#include <string_view>
#include <type_traits>
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

// Pages for PodArray's large arrays, mapped directly (lexer.cpp): a large array lives outside
// the heap, so dropping it gives its pages back at once and never leaves a hole that the small
// objects allocated around it would pin (a tree's pre-passes lex each file and keep a little of
// it). Growing and shrinking move the mapping (mremap), never copy.
void* map_pages(void* old, std::size_t old_bytes, std::size_t bytes);
void unmap_pages(void* p, std::size_t bytes);

// A growable array of trivially copyable values: not initialised before it is written, and
// grown or shrunk without copying: realloc for a small one; a large one (kMappedBytes or more) in
// pages of its own (map_pages), of which only those written are resident.
template <typename T>
class PodArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kMappedBytes = std::size_t{256} << 10;

  PodArray() = default;
  PodArray(const PodArray& o) { *this = o; }
  PodArray(PodArray&& o) noexcept : p_(o.p_), n_(o.n_), cap_(o.cap_) { o.p_ = nullptr, o.n_ = o.cap_ = 0; }
  PodArray& operator=(const PodArray& o) {
    if (this != &o) {
      clear_storage();
      reserve(o.n_);
      if (o.n_ > 0) std::memcpy(p_, o.p_, o.n_ * sizeof(T));
      n_ = o.n_;
    }
    return *this;
  }
  PodArray& operator=(PodArray&& o) noexcept {
    if (this != &o) {
      clear_storage();
      p_ = o.p_, n_ = o.n_, cap_ = o.cap_;
      o.p_ = nullptr, o.n_ = o.cap_ = 0;
    }
    return *this;
  }
  ~PodArray() { clear_storage(); }

  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] bool empty() const { return n_ == 0; }
  [[nodiscard]] const T* data() const { return p_; }
  [[nodiscard]] T* data() { return p_; }
  [[nodiscard]] const T& operator[](std::size_t i) const { return p_[i]; }
  [[nodiscard]] T& operator[](std::size_t i) { return p_[i]; }
  [[nodiscard]] const T* begin() const { return p_; }
  [[nodiscard]] const T* end() const { return p_ + n_; }
  [[nodiscard, gnu::always_inline]] T& back() { return p_[n_ - 1]; }
  [[gnu::always_inline]] void push_back(T v) {
    if (n_ == cap_) [[unlikely]]
      reserve(cap_ < 16 ? 16 : cap_ + cap_ / 2);
    p_[n_++] = v;
  }
  // Room for `cap` values (never less than size()).
  void reserve(std::size_t cap) {
    if (cap < n_ || cap == cap_) return;
    if (cap == 0) return clear_storage();
    const std::size_t bytes = cap * sizeof(T), old = cap_ * sizeof(T);
    void* q = nullptr;
    if (bytes >= kMappedBytes && old >= kMappedBytes) {
      q = map_pages(p_, old, bytes);
    } else if (bytes >= kMappedBytes || old >= kMappedBytes) {  // between the heap and pages of its own
      q = bytes >= kMappedBytes ? map_pages(nullptr, 0, bytes) : std::malloc(bytes);
      if (q && n_ > 0) std::memcpy(q, p_, n_ * sizeof(T));
      if (q) release(p_, old);
    } else {
      q = std::realloc(p_, bytes);
    }
    if (!q) throw std::bad_alloc();
    p_ = static_cast<T*>(q), cap_ = cap;
  }
  // size() values whose contents are written by the caller (not initialised).
  void resize_uninitialized(std::size_t n) {
    reserve(n);
    n_ = n;
  }
  void shrink_to_fit() { reserve(n_); }
  [[nodiscard]] std::size_t capacity_bytes() const { return cap_ * sizeof(T); }

 private:
  static void release(void* p, std::size_t bytes) {
    if (bytes >= kMappedBytes) unmap_pages(p, bytes);
    else std::free(p);
  }
  void clear_storage() {
    if (p_) release(p_, cap_ * sizeof(T));
    p_ = nullptr, n_ = cap_ = 0;
  }
  T* p_ = nullptr;
  std::size_t n_ = 0, cap_ = 0;
};

// The tokens of one buffer, stored by column (9 bytes a token): where each starts, its line, and
// its kind with the directive flag in one byte. A token ends where the next starts; its column is
// its offset from the start of its line (a table of line starts, 4 bytes a line). Read as
// lex::Token values: `toks[i].line`, `for (const Token& t : toks)`.
class TokenList {
 public:
  [[nodiscard]] std::size_t size() const { return kind_.size(); }
  [[nodiscard]] bool empty() const { return kind_.empty(); }
  [[nodiscard, gnu::always_inline]] Kind kind(std::size_t i) const { return static_cast<Kind>(kind_[i] & 0x7f); }
  [[nodiscard, gnu::always_inline]] bool in_directive(std::size_t i) const { return (kind_[i] & 0x80) != 0; }
  [[nodiscard, gnu::always_inline]] std::uint32_t begin(std::size_t i) const { return begin_[i]; }
  [[nodiscard, gnu::always_inline]] std::uint32_t end(std::size_t i) const { return begin_[i + 1]; }
  [[nodiscard, gnu::always_inline]] std::uint32_t line(std::size_t i) const { return line_[i]; }
  [[nodiscard]] std::uint32_t col(std::size_t i) const { return begin_[i] - line_start_[line_[i] - 1] + 1; }
  [[nodiscard, gnu::always_inline]] Token operator[](std::size_t i) const {
    return Token{kind(i), in_directive(i), begin(i), end(i), line(i), col(i)};
  }
  [[nodiscard]] Token back() const { return (*this)[size() - 1]; }
  [[nodiscard]] Token front() const { return (*this)[0]; }
  // Lines of the buffer: 1 + its newlines.
  [[nodiscard]] std::size_t line_count() const { return line_start_.size(); }
  // Bytes of memory held (capacity, not size).
  [[nodiscard]] std::size_t memory_bytes() const {
    return begin_.capacity_bytes() + line_.capacity_bytes() + kind_.capacity_bytes() + line_start_.capacity_bytes();
  }

  class iterator {
   public:
    using value_type = Token;
    using difference_type = std::ptrdiff_t;
    using reference = Token;
    using iterator_category = std::input_iterator_tag;
    iterator(const TokenList* l, std::size_t i) : l_(l), i_(i) {}
    Token operator*() const { return (*l_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const TokenList* l_;
    std::size_t i_;
  };
  [[nodiscard]] iterator begin() const { return {this, 0}; }
  [[nodiscard]] iterator end() const { return {this, size()}; }

 private:
  friend class Lexer;
  PodArray<std::uint32_t> begin_;       // size() + 1: the last is the buffer's size
  PodArray<std::uint32_t> line_;        // 1-based
  PodArray<std::uint8_t> kind_;         // Kind | 0x80 in a directive
  PodArray<std::uint32_t> line_start_;  // offset of line L's first byte at L - 1
};

// What lex::CodeView reads code through, built as the tokens are lexed: per code token (the
// non-trivia ones, in order) its token index, its text's short_key and the code index of its
// bracket partner (kNoPartner for none: brackets pair within code and within each directive, a
// stray closer pairs with nothing).
struct CodeIndex {
  static constexpr std::uint32_t kNoPartner = 0xffffffffu;
  PodArray<std::uint32_t> token;
  PodArray<std::uint64_t> key;
  PodArray<std::uint32_t> partner;
};

// Tokenizes `src`, and fills `code` when given. Offsets are 32-bit: callers reject inputs of
// 4 GiB or more.
[[nodiscard]] TokenList lex(std::string_view src, CodeIndex* code = nullptr);
// The same tokens, one struct each.
[[nodiscard]] std::vector<Token> tokenize(std::string_view src);

[[nodiscard]] const char* kind_name(Kind k);

}  // namespace ferry::lex
