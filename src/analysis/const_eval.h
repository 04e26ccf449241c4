// Constant values of expressions as the hazard checks see them: lex::eval_const (the one
// evaluator, lex/const_expr) with the names of the file's facts: a function's constant locals,
// the file's constants, then the project's.
#pragma once

#include <cstddef>
#include <optional>

#include "analysis/facts.h"
#include "lex/code_view.h"

namespace ferry::analysis {

// Evaluates the constant expression in code tokens [first, last]: integer literals, sizeof of
// builtin types, named constants, + - * / % << >> & | ^ ~ ! ?:, comparisons, parentheses, casts
// to integer types. nullopt when anything is unknown.
[[nodiscard]] std::optional<long long> eval_constant(const migrate::FileMigration& file, const FileFacts& facts,
                                                     std::size_t first, std::size_t last,
                                                     const FunctionInfo* scope = nullptr);

// The same over a code view (what the checks hold); `scope` null means file scope.
[[nodiscard]] std::optional<long long> eval(const lex::CodeView& v, const FileFacts& facts, std::size_t first,
                                            std::size_t last, const FunctionInfo* scope);

}  // namespace ferry::analysis
