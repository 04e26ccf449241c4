// Token-level helpers shared by the HIP passes and the project-wide pre-pass.
//
// The pre-pass (HipTarget::prepare_project) sees raw files, the passes see a FileMigration; both
// expose the same reading interface (code_size, code, text, is), so the helpers are templates
// over that interface. They are heuristics over tokens, never a parser: they must be right on
// the code people write and stay silent when unsure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lex/lexer.h"

namespace ferry::targets::hip {

// The non-trivia tokens of one buffer, addressed like FileMigration's code indices.
class CodeView {
 public:
  explicit CodeView(std::string_view src) : src_(src), toks_(lex::tokenize(src)) {
    code_.reserve(toks_.size() / 2);
    for (std::uint32_t i = 0; i < toks_.size(); ++i)
      if (!lex::is_trivia(toks_[i].kind)) code_.push_back(i);
  }
  [[nodiscard]] std::size_t code_size() const { return code_.size(); }
  [[nodiscard]] const lex::Token& code(std::size_t ci) const { return toks_[code_[ci]]; }
  [[nodiscard]] std::string_view text(std::size_t ci) const { return code(ci).text(src_); }
  [[nodiscard]] bool is(std::size_t ci, std::string_view t) const {
    return ci < code_.size() && text(ci) == t;
  }
  [[nodiscard]] std::string_view source() const { return src_; }
  [[nodiscard]] const std::vector<lex::Token>& tokens() const { return toks_; }

 private:
  std::string_view src_;
  std::vector<lex::Token> toks_;
  std::vector<std::uint32_t> code_;
};

// Words that end an expression context: an identifier after them is used, not declared.
[[nodiscard]] bool is_expression_keyword(std::string_view t);
// Built-in type words (`unsigned`, `int`, `float`, ...) and `const`/`volatile`.
[[nodiscard]] bool is_builtin_type_word(std::string_view t);

// True when the identifier at `ci` is the name being declared: `#define NAME`, a function
// declaration or definition (`T NAME(`), a variable (`T NAME =`, `T NAME;`, `T NAME[`), a type
// (`struct NAME {`, `using NAME =`, `} NAME;` of a typedef) or a namespace.
template <class View>
[[nodiscard]] bool is_declared_name(const View& v, std::size_t ci) {
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
  const bool declarator_end = next == "(" || next == "=" || next == ";" || next == "[" ||
                              next == "," || next == "{" || next == ")";
  if (!declarator_end) return false;
  if (v.code(ci - 1).kind == lex::Kind::Identifier) {
    if (is_expression_keyword(prev)) return false;
    // `f(a, NAME)` / `g(x) NAME(` are not declarations; a type word before NAME is.
    if (next == ")" || next == ",") return is_builtin_type_word(prev);
    return true;
  }
  if ((prev == "*" || prev == "&" || prev == "&&") && ci >= 2)
    return is_builtin_type_word(v.text(ci - 2));
  return false;
}

// Widths of integer declarations as far as the type words tell.
enum class IntWidth : std::uint8_t { None, Narrow, Wide, Unknown };

// For the identifier at `ci`, the width its declaration there gives it: walks back over type
// words (`unsigned int`, `const uint32_t`, `unsigned long long`, `auto`). None when no type word
// precedes it (a use, not a declaration); Unknown for other types (a typedef, a class).
template <class View>
[[nodiscard]] IntWidth declared_width(const View& v, std::size_t ci) {
  bool any = false, narrow = false, wide = false;
  std::size_t i = ci;
  while (i > 0) {
    const std::string_view t = v.text(i - 1);
    if (t == "const" || t == "volatile" || t == "static" || t == "register" || t == "constexpr") {
      --i;
      continue;
    }
    if (t == "unsigned" || t == "signed" || t == "int" || t == "short" || t == "char" ||
        t == "uint32_t" || t == "int32_t" || t == "uint16_t" || t == "int16_t" ||
        t == "uint8_t" || t == "int8_t" || t == "__uint32_t" || t == "__int32_t") {
      any = narrow = true;
    } else if (t == "long" || t == "uint64_t" || t == "int64_t" || t == "size_t" ||
               t == "auto" || t == "__uint64_t" || t == "__int64_t" || t == "uintptr_t") {
      any = wide = true;
    } else if (t == "::" && i >= 2 && v.text(i - 2) == "std") {
      --i;  // std::uint32_t: skip "::" then "std"
    } else {
      if (!any && i == ci && v.code(i - 1).kind == lex::Kind::Identifier &&
          !is_expression_keyword(t)) {
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

// The value of an integer literal ("0xffffffffu", "4294967295", "~0" is not one), if it fits.
[[nodiscard]] bool integer_literal_value(std::string_view t, unsigned long long& value);

}  // namespace ferry::targets::hip
