#include "lex/const_expr.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <vector>

namespace ferry::lex {

namespace {

bool is_one_of(std::string_view t, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), t) != set.end();
}

// sizeof of the builtin and CUDA/HIP vector types, the one table of Ferry.
const std::map<std::string_view, unsigned>& type_sizes() {
  static const std::map<std::string_view, unsigned> kSizes = {
      {"char", 1},         {"bool", 1},           {"int8_t", 1}, {"uint8_t", 1},       {"char2", 2},
      {"uchar2", 2},       {"char4", 4},          {"uchar4", 4}, {"short", 2},         {"int16_t", 2},
      {"uint16_t", 2},     {"half", 2},           {"__half", 2}, {"__nv_bfloat16", 2}, {"nv_bfloat16", 2},
      {"hip_bfloat16", 2}, {"__hip_bfloat16", 2}, {"half2", 4},  {"__half2", 4},       {"__nv_bfloat162", 4},
      {"int", 4},          {"unsigned", 4},       {"float", 4},  {"int32_t", 4},       {"uint32_t", 4},
      {"uint", 4},         {"long", 8},           {"double", 8}, {"int64_t", 8},       {"uint64_t", 8},
      {"size_t", 8},       {"float2", 8},         {"int2", 8},   {"uint2", 8},         {"float3", 12},
      {"int3", 12},        {"float4", 16},        {"int4", 16},  {"uint4", 16},        {"double2", 16},
      {"longlong2", 16},   {"double4", 32},
  };
  return kSizes;
}

// Recursive descent over code tokens [first, last] of a view.
class Evaluator {
 public:
  Evaluator(const CodeView& v, std::size_t first, std::size_t last, const ConstNames* names)
      : v_(v), i_(first), last_(last), names_(names) {}

  std::optional<long long> run() {
    if (i_ > last_) return std::nullopt;
    auto r = ternary();
    if (!r || i_ != last_ + 1) return std::nullopt;
    return r;
  }

 private:
  [[nodiscard]] bool at(std::string_view s) const { return i_ <= last_ && v_.is(i_, s); }

  std::optional<long long> ternary() {
    auto c = binary(4);
    if (!c || !at("?")) return c;
    ++i_;
    auto a = ternary();
    if (!a || !at(":")) return std::nullopt;
    ++i_;
    auto b = ternary();
    if (!b) return std::nullopt;
    return *c ? a : b;
  }

  std::optional<long long> binary(int min_prec) {
    auto lhs = unary();
    while (lhs && i_ <= last_) {
      const std::string_view op = v_.text(i_);
      const int p = binary_precedence(op);
      if (p == 0 || p < min_prec) break;
      ++i_;
      auto rhs = binary(p + 1);
      if (!rhs) return std::nullopt;
      const long long a = *lhs, b = *rhs;
      if (op == "*") lhs = a * b;
      else if (op == "/") {
        if (b == 0) return std::nullopt;
        lhs = a / b;
      } else if (op == "%") {
        if (b == 0) return std::nullopt;
        lhs = a % b;
      } else if (op == "+") lhs = a + b;
      else if (op == "-") lhs = a - b;
      else if (op == "<<") {
        if (b < 0 || b > 62) return std::nullopt;
        lhs = a << b;
      } else if (op == ">>") {
        if (b < 0 || b > 62) return std::nullopt;
        lhs = a >> b;
      } else if (op == "<") lhs = a < b;
      else if (op == "<=") lhs = a <= b;
      else if (op == ">") lhs = a > b;
      else if (op == ">=") lhs = a >= b;
      else if (op == "==") lhs = a == b;
      else if (op == "!=") lhs = a != b;
      else if (op == "&") lhs = a & b;
      else if (op == "^") lhs = a ^ b;
      else if (op == "|") lhs = a | b;
      else if (op == "&&") lhs = a && b;
      else if (op == "||") lhs = a || b;
    }
    return lhs;
  }

  std::optional<long long> unary() {
    if (i_ > last_) return std::nullopt;
    if (at("-")) {
      ++i_;
      auto x = unary();
      return x ? std::optional(-*x) : std::nullopt;
    }
    if (at("+")) {
      ++i_;
      return unary();
    }
    if (at("~")) {
      ++i_;
      const bool narrow = i_ <= last_ && v_.is_number(i_) && is_32bit_literal(v_.text(i_));
      auto x = unary();
      if (!x) return std::nullopt;
      // ~0u is 0xffffffff: keep 32-bit literals 32-bit.
      return narrow ? static_cast<long long>(~static_cast<std::uint32_t>(*x)) : ~*x;
    }
    if (at("!")) {
      ++i_;
      auto x = unary();
      return x ? std::optional<long long>(!*x) : std::nullopt;
    }
    if (at("(")) {
      const std::size_t close = v_.partner(i_);
      if (close == npos || close > last_) return std::nullopt;
      // A cast to an integer type: every token inside is an integer type word.
      bool cast = close > i_ + 1;
      for (std::size_t j = i_ + 1; j < close; ++j)
        cast = cast && ((v_.is_identifier(j) && is_integer_type_word(v_.text(j))) || v_.is(j, "::"));
      if (cast && close < last_) {
        i_ = close + 1;
        return unary();
      }
      ++i_;
      auto x = ternary();
      if (!x || !at(")")) return std::nullopt;
      ++i_;
      return x;
    }
    return primary();
  }

  std::optional<long long> primary() {
    if (i_ > last_) return std::nullopt;
    const std::string_view t = v_.text(i_);
    if (v_.is_number(i_)) {
      ++i_;
      const auto v = integer_literal(t);
      if (!v || *v > static_cast<unsigned long long>(LLONG_MAX)) return std::nullopt;
      return static_cast<long long>(*v);
    }
    if (!v_.is_identifier(i_)) return std::nullopt;
    if (t == "true") return ++i_, 1;
    if (t == "false") return ++i_, 0;
    if (t == "sizeof" && v_.is(i_ + 1, "(")) {
      const std::size_t close = v_.partner(i_ + 1);
      if (close == npos || close > last_) return std::nullopt;
      std::vector<std::string_view> words;
      for (std::size_t j = i_ + 2; j < close; ++j) {
        if (!v_.is_identifier(j)) return std::nullopt;
        words.push_back(v_.text(j));
      }
      const unsigned s = type_size(words);
      if (s == 0) return std::nullopt;
      i_ = close + 1;
      return s;
    }
    if (is_one_of(t, {"static_cast", "int", "unsigned", "size_t", "int64_t", "uint32_t"})) {
      // static_cast<T>(x) or a functional cast T(x)
      std::size_t j = i_ + 1;
      if (t == "static_cast") {
        if (!v_.is(j, "<")) return std::nullopt;
        while (j <= last_ && !v_.is(j, ">")) ++j;
        ++j;
      }
      if (!v_.is(j, "(")) return std::nullopt;
      const std::size_t close = v_.partner(j);
      if (close == npos || close > last_) return std::nullopt;
      i_ = j + 1;
      auto x = ternary();
      if (!x || i_ != close) return std::nullopt;
      i_ = close + 1;
      return x;
    }
    ++i_;
    return names_ ? names_->value(t) : std::nullopt;
  }

  const CodeView& v_;
  std::size_t i_;
  std::size_t last_;
  const ConstNames* names_;
};

}  // namespace

std::optional<unsigned long long> integer_literal(std::string_view t) {
  while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L' || t.back() == 'z' ||
                        t.back() == 'Z'))
    t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  unsigned base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) base = 16, t.remove_prefix(2);
  else if (t.size() > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) base = 2, t.remove_prefix(2);
  else if (t.size() > 1 && t[0] == '0') base = 8, t.remove_prefix(1);
  unsigned long long v = 0;
  bool digits = false;
  for (const char c : t) {
    if (c == '\'') continue;
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return std::nullopt;  // a float, or something else
    if (d >= base) return std::nullopt;
    if (v > (~0ull - d) / base) return std::nullopt;  // above 64 bits
    v = v * base + d;
    digits = true;
  }
  if (!digits) return std::nullopt;
  return v;
}

bool is_32bit_literal(std::string_view t) {
  return t.find('l') == std::string_view::npos && t.find('L') == std::string_view::npos;
}

unsigned type_size(std::span<const std::string_view> words) {
  std::vector<std::string_view> w;
  for (std::string_view s : words)
    if (!is_one_of(s, {"const", "volatile", "static", "signed", "std", "__restrict__", "struct"})) w.push_back(s);
  if (w.empty()) return 0;
  if (w.size() >= 2 && w[w.size() - 1] == "long" && w[w.size() - 2] == "long") return 8;
  if (w.size() >= 2 && w.back() == "int") w.pop_back();  // "unsigned int", "long int"
  if (w.size() == 2 && w[0] == "unsigned") w.erase(w.begin());
  if (w.size() == 2 && w[0] == "long" && w[1] == "long") return 8;
  if (w.size() != 1) return 0;
  const auto it = type_sizes().find(w[0]);
  return it == type_sizes().end() ? 0 : it->second;
}

bool is_integer_type_word(std::string_view s) {
  return is_one_of(s, {"int",     "unsigned", "signed",    "long",     "short",   "char",     "size_t",
                       "int32_t", "uint32_t", "int64_t",   "uint64_t", "int16_t", "uint16_t", "int8_t",
                       "uint8_t", "uint",     "ptrdiff_t", "ssize_t",  "auto",    "std",      "bool"});
}

int binary_precedence(std::string_view op) {
  if (is_one_of(op, {"*", "/", "%"})) return 13;
  if (is_one_of(op, {"+", "-"})) return 12;
  if (is_one_of(op, {"<<", ">>"})) return 11;
  if (is_one_of(op, {"<", "<=", ">", ">="})) return 10;
  if (is_one_of(op, {"==", "!="})) return 9;
  if (op == "&") return 8;
  if (op == "^") return 7;
  if (op == "|") return 6;
  if (op == "&&") return 5;
  if (op == "||") return 4;
  return 0;
}

std::optional<long long> eval_const(const CodeView& v, std::size_t first, std::size_t last, const ConstNames* names) {
  return Evaluator(v, first, last, names).run();
}

std::optional<long long> eval_const(std::string_view expr) {
  const CodeView v(expr);
  if (v.code_size() == 0) return std::nullopt;
  return eval_const(v, 0, v.code_size() - 1);
}

}  // namespace ferry::lex
