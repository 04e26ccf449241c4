#include "targets/hip/pass_util.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "analysis/tokens.h"

namespace ferry::targets::hip {

bool is_expression_keyword(std::string_view t) {
  static constexpr std::array<std::string_view, 38> kWords = {
      "return",   "case",      "else",     "do",       "new",      "delete",        "throw",   "sizeof",
      "goto",     "co_return", "co_yield", "co_await", "typeid",   "alignof",       "alignas", "decltype",
      "noexcept", "not",       "and",      "or",       "xor",      "bitand",        "bitor",   "compl",
      "not_eq",   "and_eq",    "or_eq",    "xor_eq",   "operator", "static_assert", "if",      "while",
      "for",      "switch",    "template", "typename", "define",   "defined"};
  for (std::string_view w : kWords)
    if (t == w) return true;
  return false;
}

bool is_builtin_type_word(std::string_view t) {
  static constexpr std::array<std::string_view, 16> kWords = {
      "void",     "bool",   "char", "short", "int",      "long",   "float",    "double",
      "unsigned", "signed", "auto", "const", "volatile", "size_t", "uint32_t", "uint64_t"};
  for (std::string_view w : kWords)
    if (t == w) return true;
  return false;
}

bool is_declared_name(const lex::CodeView& v, std::size_t ci) {
  if (ci >= v.code_size() || v.code(ci).kind != lex::Kind::Identifier || ci == 0) return false;
  const lex::Token& name = v.code(ci);
  if (name.in_directive)
    return ci >= 2 && v.is(ci - 1, "define") && v.is(ci - 2, "#") && v.code(ci - 1).in_directive &&
           v.code(ci - 2).line == v.code(ci - 1).line;
  if (v.code(ci - 1).in_directive) return false;
  const bool has_next = ci + 1 < v.code_size() && !v.code(ci + 1).in_directive;
  const std::string_view next = has_next ? v.text(ci + 1) : std::string_view();
  const std::string_view prev = v.text(ci - 1);
  if (prev == "struct" || prev == "class" || prev == "union" || prev == "enum")
    return next == "{" || next == ":" || next == ";";
  if (prev == "namespace") return next == "{";
  if (prev == "using") return next == "=";
  if (prev == "}") return next == ";";
  const bool declarator_end =
      next == "(" || next == "=" || next == ";" || next == "[" || next == "," || next == "{" || next == ")";
  if (!declarator_end) return false;
  if (v.code(ci - 1).kind == lex::Kind::Identifier) {
    if (is_expression_keyword(prev)) return false;
    // `f(a, NAME)` / `g(x) NAME(` are not declarations; a type word before NAME is.
    if (next == ")" || next == ",") return is_builtin_type_word(prev);
    return true;
  }
  if ((prev == "*" || prev == "&" || prev == "&&") && ci >= 2) return is_builtin_type_word(v.text(ci - 2));
  return false;
}

IntWidth declared_width(const lex::CodeView& v, std::size_t ci) {
  bool any = false, narrow = false, wide = false;
  std::size_t i = ci;
  while (i > 0) {
    const std::string_view t = v.text(i - 1);
    if (t == "const" || t == "volatile" || t == "static" || t == "register" || t == "constexpr") {
      --i;
      continue;
    }
    if (t == "unsigned" || t == "signed" || t == "int" || t == "short" || t == "char" || t == "uint32_t" ||
        t == "int32_t" || t == "uint16_t" || t == "int16_t" || t == "uint8_t" || t == "int8_t" || t == "__uint32_t" ||
        t == "__int32_t") {
      any = narrow = true;
    } else if (t == "long" || t == "uint64_t" || t == "int64_t" || t == "size_t" || t == "auto" || t == "__uint64_t" ||
               t == "__int64_t" || t == "uintptr_t") {
      any = wide = true;
    } else if (t == "::" && i >= 2 && v.text(i - 2) == "std") {
      --i;  // std::uint32_t: skip "::" then "std"
    } else {
      if (!any && i == ci && v.code(i - 1).kind == lex::Kind::Identifier && !is_expression_keyword(t)) {
        // `mask_t m = ...`: some type we cannot size.
        const std::string_view n = ci + 1 < v.code_size() ? v.text(ci + 1) : std::string_view();
        if (n == "=" || n == ";" || n == ",") return IntWidth::Unknown;
      }
      break;
    }
    --i;
  }
  if (!any) return IntWidth::None;
  return wide ? IntWidth::Wide : (narrow ? IntWidth::Narrow : IntWidth::Unknown);
}

std::uint32_t line_start(std::string_view src, std::uint32_t offset) {
  if (offset == 0) return 0;
  const std::size_t nl = src.rfind('\n', offset - 1);
  return nl == std::string_view::npos ? 0 : static_cast<std::uint32_t>(nl + 1);
}

bool only_blanks(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

std::size_t launch_kernel_start(const lex::CodeView& f, std::size_t last, bool& templated) {
  using lex::npos;
  templated = false;
  std::size_t i = last;
  if (f.is(i, ">")) {
    const std::size_t open = analysis::angle_open(f, i);
    if (open == npos || open == 0) return npos;
    templated = true;
    i = open - 1;
  } else if (f.is(i, ")")) {
    // (*fn)<<<...>>> or (kernel_table[i])<<<...>>>: the parenthesized expression.
    int depth = 0;
    for (;; --i) {
      if (f.is(i, ")")) ++depth;
      else if (f.is(i, "(")) --depth;
      if (depth == 0 || i == 0) break;
    }
    return depth == 0 ? i : npos;
  }
  if (!f.is_identifier(i)) return npos;
  // Qualified names: ns::k, ::k, obj.k, p->k.
  while (i >= 2 && (f.is(i - 1, "::") || f.is(i - 1, ".") || f.is(i - 1, "->")) && f.is_identifier(i - 2)) i -= 2;
  if (i >= 1 && f.is(i - 1, "::")) --i;
  return i;
}

std::vector<std::uint32_t> header_names(const lex::CodeView& v) {
  std::vector<std::uint32_t> out;
  for (const std::uint32_t ci : v.occurrences({"include", "include_next", "import"})) {
    if (!v.in_directive(ci)) continue;
    const std::size_t last = v.directive_last(ci);
    for (std::size_t k = ci + 1; k <= last && k < v.code_size(); ++k)
      if (v.code(k).kind == lex::Kind::HeaderName) out.push_back(static_cast<std::uint32_t>(k));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::uint32_t> conditional_directives(const lex::CodeView& v) {
  std::vector<std::uint32_t> out;
  for (const std::uint32_t ci : v.occurrences({"if", "ifdef", "ifndef", "elif", "else", "endif"}))
    if (ci > 0 && v.in_directive(ci - 1) && v.is(ci - 1, "#")) out.push_back(ci - 1);
  return out;
}

bool includes_hip_header(const lex::CodeView& v) {
  for (const std::uint32_t ci : header_names(v))
    if (v.text(ci).substr(1).starts_with("hip/")) return true;
  return false;
}

}  // namespace ferry::targets::hip
