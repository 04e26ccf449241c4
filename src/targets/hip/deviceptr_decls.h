// The integer handle types of CUDA whose HIP twins are pointers (CUdeviceptr, texture and surface
// objects), and the declarations of names with them: shared by the project-wide collection
// (deviceptr_decls.cpp, deviceptr_scan) and the rewriting pass (deviceptr_pass.cpp, whose
// head comment says what is rewritten and why). Internal to src/targets/hip/.
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

// The handle whose CUDA type name is the token at `ci`, or null.
[[nodiscard]] const IntegerHandle* handle_at(const lex::CodeView& v, std::size_t ci);
[[nodiscard]] bool is_handle_type(const lex::CodeView& v, std::size_t ci);
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

enum class DeclKind : std::uint8_t { Value, Pointer, Other };
struct Decl {
  std::size_t ci;  // the declared name
  DeclKind kind;
  const IntegerHandle* handle = nullptr;  // Value and Pointer: its type
};

// Every declaration of a name in `v`, in file order: handle values and pointers, and names
// declared with any other type (as far as tokens tell; such a name is never rewritten).
[[nodiscard]] std::vector<Decl> declarations(const lex::CodeView& v);
// The same, with the declarations of other types (DeclKind::Other) only for names in `names`
// and the names declared with a handle type: what a pass that asks about those names needs.
[[nodiscard]] std::vector<Decl> declarations_of(const lex::CodeView& v, const std::vector<std::string_view>& names);

}  // namespace ferry::targets::hip::deviceptr
