// The one constant-expression evaluator of Ferry (and its literal parser and sizeof table), for
// every pass that needs the value of an expression written in the source: analysis/ (shared
// memory sizes, block sizes, masks, warp-width constants) and the cann target (capacities).
//
// It evaluates integer literals, true/false, sizeof of builtin and CUDA vector types, named
// constants the caller resolves, + - * / % << >> & | ^ ~ ! && || ?:, comparisons, parentheses,
// C casts and static_cast/functional casts to integer types. Anything else (a variable, a call,
// a float) makes the whole expression unknown (nullopt): callers act only on values they know.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "lex/code_view.h"

namespace ferry::lex {

// The value of an integer literal: decimal, hex, octal, binary, digit separators, u/l/z
// suffixes. nullopt for anything else (a float) or above 64 bits.
[[nodiscard]] std::optional<unsigned long long> integer_literal(std::string_view t);
// An integer literal of 32 bits: no 'l'/'L' in its suffix (int and unsigned are 32 bits wherever
// CUDA and HIP run; long is 64 bits on the Linux targets, so `1ul` is not).
[[nodiscard]] bool is_32bit_literal(std::string_view t);

// sizeof of a type written as words ("unsigned int", "long long", "float4", "const __half"),
// 0 when unknown.
[[nodiscard]] unsigned type_size(std::span<const std::string_view> words);
// Words that may appear in an integer type or a cast to one (int, unsigned, size_t, std, ...).
[[nodiscard]] bool is_integer_type_word(std::string_view s);
// Binding strength of a binary operator (higher binds tighter: * is 13, || is 4); 0 otherwise.
[[nodiscard]] int binary_precedence(std::string_view op);

// The named constants an expression may use; the caller says what a name is worth.
class ConstNames {
 public:
  virtual ~ConstNames() = default;
  [[nodiscard]] virtual std::optional<long long> value(std::string_view name) const = 0;
};

// The value of code tokens [first, last] of `v`, or nullopt.
[[nodiscard]] std::optional<long long> eval_const(const CodeView& v, std::size_t first, std::size_t last,
                                                  const ConstNames* names = nullptr);
// The value of an expression given as text (no names), or nullopt.
[[nodiscard]] std::optional<long long> eval_const(std::string_view expr);

}  // namespace ferry::lex
