// From ROCm 7.0 warpSize is a runtime value (it was a constant expression before): code that
// uses it where C++ needs a constant (array bounds, template arguments, constexpr and
// static_assert, case labels, __launch_bounds__) stops compiling. CUDA's warpSize was never a
// constant, so this is HIP code in the input: mixed trees and earlier ports.
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

bool starts_statement(const migrate::FileMigration& file, std::size_t ci) {
  return file.is(ci, ";") || file.is(ci, "{") || file.is(ci, "}") || file.code(ci).in_directive;
}

// Tokens that may stand between warpSize and the bracket of a constant context in an
// expression: names, numbers, arithmetic and member/scope access.
bool is_expression_filler(const migrate::FileMigration& file, std::size_t ci) {
  const lex::Token& t = file.code(ci);
  if (t.kind == lex::Kind::Identifier || t.kind == lex::Kind::Number) return true;
  for (std::string_view op : {"+", "-", "*", "/", "%", "(", ")", "::", ".", "<<", ">>", "&", "|", "^"})
    if (file.is(ci, op)) return true;
  return false;
}

// What makes `warpSize` at `ci` need a constant, or empty.
std::string_view constant_context(const migrate::FileMigration& file, std::size_t ci) {
  // The statement's words before it: constexpr, static_assert, case, __launch_bounds__, alignas, enum.
  int depth = 0;
  for (std::size_t i = ci; i-- > 0;) {
    if (file.is(i, ")") || file.is(i, "]")) ++depth;
    if (file.is(i, "(") || file.is(i, "[")) {
      if (depth == 0) {
        // warpSize inside `NAME[...]` of a declaration: `float buf[warpSize];`, `__shared__ T s[2 * warpSize]`.
        if (file.is(i, "[") && i >= 2 && file.is_identifier(i - 1) &&
            (file.is_identifier(i - 2) || file.is(i - 2, "*") || file.is(i - 2, ">")) && !file.is(i - 2, "return") &&
            !file.is(i - 2, "delete"))
          return "an array bound";
        if (file.is(i, "(") && i >= 1 &&
            (file.is(i - 1, "__launch_bounds__") || file.is(i - 1, "static_assert") || file.is(i - 1, "alignas")))
          return file.text(i - 1);
      } else {
        --depth;
      }
    }
    if (starts_statement(file, i)) {
      // An enumerator's value: `enum { kWave = warpSize };`, `enum class E : int { ... }`.
      if (file.is(i, "{") || file.is(i, ","))
        for (std::size_t j = i; j-- > 0 && j + 6 > i;)
          if (file.is(j, "enum")) return "enum";
      break;
    }
    if (file.is(i, "constexpr") || file.is(i, "case")) return file.text(i);
  }
  // A template argument: `NAME< ... warpSize ... >` with only expression tokens between.
  std::size_t open = ci;
  while (open > 0 && is_expression_filler(file, open - 1) && !file.is(open - 1, "(")) --open;
  std::size_t close = ci + 1;
  while (close < file.code_size() && (is_expression_filler(file, close) || file.is(close, ",")) && !file.is(close, ")"))
    ++close;
  if (open >= 2 && file.is(open - 1, "<") && file.is_identifier(open - 2) && close < file.code_size() &&
      (file.is(close, ">") || file.is(close, ">>")))
    return "a template argument";
  return {};
}

}  // namespace

void warp_size_pass(migrate::FileMigration& file, bool warp_size_constexpr) {
  if (warp_size_constexpr) return;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is(ci, "warpSize") || file.excluded(ci) || file.is_member_or_qualified(ci)) continue;
    if (file.code(ci).in_directive) continue;  // a macro body: the use decides, not the definition
    const std::string_view where = constant_context(file, ci);
    if (where.empty()) continue;
    file.diag(Diag::WarpSizeNotConstant, ci,
              "warpSize in " +
                  std::string(where == "constexpr" || where == "case" || where == "enum" || where == "static_assert" ||
                                      where == "alignas" || where == "__launch_bounds__"
                                  ? "a constant expression (" + std::string(where) + ")"
                                  : std::string(where)) +
                  ": from ROCm 7.0 warpSize is a runtime value, not a constant (the target is " +
                  file.target().release() + ")",
              "use a compile-time constant per architecture for this use: 64 on GFX9/CDNA (gfx906, gfx90a, "
              "gfx94x; #if defined(__GFX9__)), 32 on RDNA; keep warpSize where a runtime value will do");
  }
}

}  // namespace ferry::targets::hip
