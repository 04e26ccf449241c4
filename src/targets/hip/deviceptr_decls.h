// The integer handle types of CUDA whose HIP twins are pointers (CUdeviceptr, texture and surface
// objects), and the declarations of names with them: shared by the project-wide collection
// (deviceptr_decls.cpp, deviceptr_scan) and the rewriting pass (deviceptr_pass.cpp, whose
// head comment says what is rewritten and why), and, read with HIP's spelling, by the HIP -> CUDA
// target's typing of hipDeviceptr_t by use (src/targets/cuda/deviceptr_pass.cpp). The expression
// bounds below are shared by both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "lex/code_view.h"

namespace ferry::targets::hip::deviceptr {

// One CUDA integer handle type whose HIP twin is a pointer.
struct IntegerHandle {
  std::string_view hip;      // HIP's type (what the rules map the CUDA names to)
  std::string_view what;     // in messages: "a CUdeviceptr"
  std::string_view hip_is;   // in messages: what HIP's type is ("a void*")
  bool address;              // values are byte addresses: a sum of one and an integer is an address
  std::string_view cuda[3];  // CUDA's names of the type
};

// Which ecosystem's names of the handle types a file is read with: CUDA's (the CUDA -> HIP pass)
// or HIP's (hipDeviceptr_t: the HIP -> CUDA target).
enum class Spelling : std::uint8_t { Cuda, Hip };

// The handle whose type name (CUDA's, or HIP's) is the token at `ci`, or null.
[[nodiscard]] const IntegerHandle* handle_at(const lex::CodeView& v, std::size_t ci,
                                             Spelling spelling = Spelling::Cuda);
[[nodiscard]] bool is_handle_type(const lex::CodeView& v, std::size_t ci, Spelling spelling = Spelling::Cuda);
// The code indices of the handle types' CUDA names in `v`, ascending.
[[nodiscard]] std::vector<std::uint32_t> handle_type_names(const lex::CodeView& v);
// The handle whose HIP type is `hip`, or null.
[[nodiscard]] const IntegerHandle* handle_named(std::string_view hip);
// Whether `text` names any handle type (a cheap test before lexing a file).
[[nodiscard]] bool mentions_handle(std::string_view text);
// An operand ends at code token `ci` (so a `+`, `-`, `*`, `&` after it is binary).
[[nodiscard]] bool ends_operand(const lex::CodeView& v, std::size_t ci);
// The operator at `ci` is binary: an operand ends before it (a cast's `)` does not: `(void *)&x`).
[[nodiscard]] bool is_binary_at(const lex::CodeView& v, std::size_t ci);
// The `)` at `close` ends a C cast `(T)` (of what follows it): the group holds a type (it ends in
// a name, `*` or `&`) and nothing before it makes it a call, a condition or an operand.
[[nodiscard]] bool is_cast_paren(const lex::CodeView& v, std::size_t close);

// Expression bounds over tokens (heuristics, never a parser):
// Last code index of the unary expression that starts at `i` (prefix operators, casts, a primary
// and its postfix chain); npos when none starts there.
[[nodiscard]] std::size_t unary_end(const lex::CodeView& v, std::size_t i);
// First code index of the postfix expression that ends at `e` (`a.b[i]->c`, `f(x)`).
[[nodiscard]] std::size_t postfix_start(const lex::CodeView& v, std::size_t e);
// First code index of the unary expression that ends at `e`: the postfix expression, casts and
// prefix operators before it.
[[nodiscard]] std::size_t unary_start(const lex::CodeView& v, std::size_t e);
// The innermost `(`, `[` or `{` that holds code token `ci` (within its statement), or npos.
[[nodiscard]] std::size_t enclosing_open(const lex::CodeView& v, std::size_t ci);
// [first, last] is one null pointer constant (`0`, `NULL`, `nullptr`, `0ULL`...).
[[nodiscard]] bool null_literal(const lex::CodeView& v, std::size_t first, std::size_t last);

enum class DeclKind : std::uint8_t { Value, Pointer, Other };
struct Decl {
  std::size_t ci;  // the declared name
  DeclKind kind;
  const IntegerHandle* handle = nullptr;  // Value and Pointer: its type
  std::size_t type_ci = lex::npos;        // Value and Pointer: the handle type's word of the declaration
};

// Every declaration of a name in `v`, in file order: handle values and pointers, and names
// declared with any other type (as far as tokens tell; such a name is never rewritten).
[[nodiscard]] std::vector<Decl> declarations(const lex::CodeView& v);
// The same, with the declarations of other types (DeclKind::Other) only for names in `names`
// and the names declared with a handle type: what a pass that asks about those names needs.
// `spelling`: the handle types as CUDA or as HIP names them.
[[nodiscard]] std::vector<Decl> declarations_of(const lex::CodeView& v, const std::vector<std::string_view>& names,
                                                Spelling spelling = Spelling::Cuda);

}  // namespace ferry::targets::hip::deviceptr
