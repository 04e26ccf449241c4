#include <cctype>
#include <string>

#include "lex/lexer.h"
#include "targets/cann/passes.h"

namespace ferry::targets::cann {

using migrate::FileMigration;
using migrate::npos;

std::string squeezed(const FileMigration& f, std::size_t first, std::size_t last) {
  std::string out;
  for (char c : f.span_text(first, last))
    if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
  return out;
}

bool is_default_stream(std::string_view t) {
  return t == "0" || t == "NULL" || t == "nullptr" || t == "cudaStreamLegacy" || t == "(cudaStream_t)0";
}

namespace {
bool is_stream_type(std::string_view t) { return t == "cudaStream_t" || t == "aclrtStream"; }
}  // namespace

std::string visible_stream(const FileMigration& f, std::size_t ci) {
  int depth = 0;
  std::string pending0, local, global;
  for (std::size_t i = 0; i < ci && i < f.code_size(); ++i) {
    if (f.code(i).in_directive) continue;
    const std::string_view t = f.text(i);
    if (t == "{") {
      if (depth == 0) {
        local = pending0;  // a stream parameter of the function whose body starts here
        pending0.clear();
      }
      ++depth;
    } else if (t == "}") {
      if (depth > 0 && --depth == 0) local.clear();
    } else if (t == ";" && depth == 0) {
      if (!pending0.empty()) global = pending0;
      pending0.clear();
    } else if (is_stream_type(t) && !f.is_member_or_qualified(i)) {
      std::size_t n = i + 1;
      if (f.is(n, "&")) ++n;
      if (!f.is_identifier(n)) continue;
      const std::string_view after = n + 1 < f.code_size() ? f.text(n + 1) : std::string_view();
      if (after != ";" && after != "=" && after != "," && after != ")" && after != "{") continue;
      if (depth == 0) pending0 = std::string(f.text(n));
      else local = std::string(f.text(n));
    }
  }
  return local.empty() ? global : local;
}

std::size_t enclosing_body(const FileMigration& f, std::size_t ci) {
  int depth = 0;
  std::size_t open = npos;
  for (std::size_t i = 0; i < ci && i < f.code_size(); ++i) {
    if (f.code(i).in_directive) continue;
    if (f.is(i, "{")) {
      if (depth++ == 0) open = i;
    } else if (f.is(i, "}")) {
      if (depth > 0 && --depth == 0) open = npos;
    }
  }
  return open;
}

std::string line_indent(const FileMigration& f, std::size_t ci) {
  const std::string_view src = f.source();
  std::size_t b = f.code(ci).begin;
  while (b > 0 && src[b - 1] != '\n') --b;
  std::string out;
  while (b < src.size() && (src[b] == ' ' || src[b] == '\t')) out.push_back(src[b++]);
  return out;
}

namespace {

// Recursive descent over the tokens of one expression.
class ConstParser {
 public:
  explicit ConstParser(std::string_view s) : src_(s) {
    for (const lex::Token& t : lex::tokenize(s))
      if (!lex::is_trivia(t.kind)) toks_.push_back(t);
  }
  std::optional<long long> run() {
    auto v = sum();
    if (!v || pos_ != toks_.size()) return std::nullopt;
    return v;
  }

 private:
  std::string_view peek() const { return pos_ < toks_.size() ? toks_[pos_].text(src_) : std::string_view(); }
  std::optional<long long> sum() {
    auto v = product();
    while (v && (peek() == "+" || peek() == "-")) {
      const bool plus = peek() == "+";
      ++pos_;
      auto r = product();
      if (!r) return std::nullopt;
      v = plus ? *v + *r : *v - *r;
    }
    return v;
  }
  std::optional<long long> product() {
    auto v = primary();
    while (v && (peek() == "*" || peek() == "/")) {
      const bool mul = peek() == "*";
      ++pos_;
      auto r = primary();
      if (!r || (!mul && *r == 0)) return std::nullopt;
      v = mul ? *v * *r : *v / *r;
    }
    return v;
  }
  std::optional<long long> primary() {
    if (pos_ >= toks_.size()) return std::nullopt;
    const lex::Token& t = toks_[pos_];
    const std::string_view s = t.text(src_);
    if (s == "(") {
      ++pos_;
      auto v = sum();
      if (peek() != ")") return std::nullopt;
      ++pos_;
      return v;
    }
    if (s == "sizeof") {
      ++pos_;
      if (peek() != "(") return std::nullopt;
      ++pos_;
      std::string type;
      while (pos_ < toks_.size() && peek() != ")") type += std::string(toks_[pos_++].text(src_)) + " ";
      if (pos_ >= toks_.size()) return std::nullopt;
      ++pos_;
      return type_size(type);
    }
    if (t.kind == lex::Kind::Number) {
      ++pos_;
      std::string digits(s);
      while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' ||
                                 digits.back() == 'L'))
        digits.pop_back();
      try {
        std::size_t used = 0;
        const long long v = std::stoll(digits, &used, 0);
        if (used != digits.size()) return std::nullopt;
        return v;
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }
  static std::optional<long long> type_size(const std::string& type) {
    static const std::pair<const char*, long long> kSizes[] = {
        {"char ", 1},     {"int8_t ", 1},   {"uint8_t ", 1},  {"short ", 2},      {"int16_t ", 2},
        {"uint16_t ", 2}, {"half ", 2},     {"__half ", 2},   {"int ", 4},        {"unsigned ", 4},
        {"unsigned int ", 4}, {"float ", 4}, {"int32_t ", 4}, {"uint32_t ", 4},   {"double ", 8},
        {"long long ", 8}, {"int64_t ", 8}, {"uint64_t ", 8}, {"size_t ", 8},     {"long ", 8}};
    for (const auto& [name, size] : kSizes)
      if (type == name) return size;
    return std::nullopt;
  }

  std::string_view src_;
  std::vector<lex::Token> toks_;
  std::size_t pos_ = 0;
};

std::string strip_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
  return out;
}

}  // namespace

std::optional<long long> constant_value(std::string_view expr) { return ConstParser(expr).run(); }

bool provably_at_least(std::string_view capacity, std::string_view count) {
  if (strip_spaces(capacity) == strip_spaces(count)) return true;
  const auto cap = constant_value(capacity);
  const auto cnt = constant_value(count);
  return cap && cnt && *cap >= *cnt;
}

}  // namespace ferry::targets::cann
