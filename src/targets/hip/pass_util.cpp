#include "targets/hip/pass_util.h"

#include <array>
#include <cctype>

namespace ferry::targets::hip {

bool is_expression_keyword(std::string_view t) {
  static constexpr std::array<std::string_view, 38> kWords = {
      "return", "case",     "else",   "do",       "new",      "delete",   "throw",   "sizeof",
      "goto",   "co_return", "co_yield", "co_await", "typeid", "alignof", "alignas", "decltype",
      "noexcept", "not",    "and",    "or",       "xor",      "bitand",   "bitor",   "compl",
      "not_eq", "and_eq",   "or_eq",  "xor_eq",   "operator", "static_assert", "if", "while",
      "for",    "switch",   "template", "typename", "define", "defined"};
  for (std::string_view w : kWords)
    if (t == w) return true;
  return false;
}

bool is_builtin_type_word(std::string_view t) {
  static constexpr std::array<std::string_view, 16> kWords = {
      "void", "bool", "char", "short", "int",   "long",     "float",  "double",
      "unsigned", "signed", "auto", "const", "volatile", "size_t", "uint32_t", "uint64_t"};
  for (std::string_view w : kWords)
    if (t == w) return true;
  return false;
}

bool integer_literal_value(std::string_view t, unsigned long long& value) {
  while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L'))
    t.remove_suffix(1);
  if (t.empty()) return false;
  unsigned base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  } else if (t.size() > 1 && t[0] == '0') {
    base = 8;
    t.remove_prefix(1);
  }
  unsigned long long v = 0;
  for (const char c : t) {
    if (c == '\'') continue;
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return false;
    if (d >= base) return false;
    if (v > (~0ull - d) / base) return false;  // overflow
    v = v * base + d;
  }
  value = v;
  return true;
}

}  // namespace ferry::targets::hip
