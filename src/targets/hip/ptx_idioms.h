// Inline PTX idioms and their exact HIP equivalents: the one place that knows what a PTX
// instruction in an `asm("…" : outputs : inputs)` statement means in HIP terms (docs/targets.md
// "Inline PTX" is the table in prose). Pure functions over text: the hip target's inline_asm_pass
// parses the statement out of a file and applies the rewrite; anything else that needs to read
// PTX (a runtime, a checker) can use the same table.
//
// The table (kPtxIdioms in ptx_idioms.cpp) is data: a regular expression over the normalised
// template and the C++ expression or statement it becomes, with $1…$9 the captured groups, where a
// captured operand reference (%0, %[name]) is replaced by the operand's C++ expression. A row
// without a replacement names why HIP has no exact equivalent.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lex/code_view.h"

namespace ferry::targets::hip {

struct PtxOperand {
  std::string constraint;  // "=r", "+l", "f", "n" ...
  std::string name;        // the symbolic name of `[name] "r"(x)`, or empty
  std::string expr;        // the C++ expression in the parentheses, as written
};

struct PtxStatement {
  std::string templ;  // the template: the string literals concatenated, escapes kept (\n, %%)
  std::vector<PtxOperand> outputs;
  std::vector<PtxOperand> inputs;
};

// The template as the table matches it: escapes \n \t and %% resolved, comments and `{ }` braces
// dropped, `.reg` declarations dropped, blanks collapsed, instructions joined by "; " without a
// final ';'. Example: "mov.u32 %0, %%laneid;" -> "mov.u32 %0, %laneid".
[[nodiscard]] std::string normalize_ptx(std::string_view templ);

struct PtxRewrite {
  std::string text;   // the C++ that replaces the whole asm statement (without the ';')
  std::string idiom;  // the table row's name, for the note ("%laneid")
  bool needs_compat;  // uses ferry/compat/ptx.h (ferry_ptx_bfe_u32 ...) or hip_fp16.h
};

struct PtxVerdict {
  std::optional<PtxRewrite> rewrite;
  std::string why;  // no rewrite: why (a row that has no HIP equivalent, or "not a known idiom")
};

// The rewrite of one asm statement, or why there is none.
[[nodiscard]] PtxVerdict rewrite_ptx(const PtxStatement& s);

// Reading asm statements out of code (the hip target's inline_asm_pass rewrites them; the wave64
// planner reads what they define, so that it plans for the code the rewrite leaves).
// The `(` of the asm statement whose keyword (`asm`, `__asm__`, `__asm`) is code token `ci`,
// after any `volatile`/`goto`/`inline`; npos when `ci` starts none.
[[nodiscard]] std::size_t asm_open(const lex::CodeView& v, std::size_t ci);
// The parts of `asm (TEMPLATE : OUTPUTS : INPUTS : CLOBBERS)` between the parentheses at code
// indexes open and close: nullopt when the template is not string literals only, or an operand
// is not `[name] "constraint"(expr)`. (`::` is one token: two colons.)
[[nodiscard]] std::optional<PtxStatement> parse_asm(const lex::CodeView& v, std::size_t open, std::size_t close);

}  // namespace ferry::targets::hip
