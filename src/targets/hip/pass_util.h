// Token-level helpers shared by the HIP passes and the project-wide pre-pass.
//
// The pre-pass (HipTarget::project_scans) reads raw files through a lex::CodeView, the passes
// a FileMigration (which is one), so the helpers take a lex::CodeView. They are heuristics over tokens, never a parser:
// they must be right on the code people write and stay silent when unsure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lex/code_view.h"

namespace ferry::targets::hip {

// Words that end an expression context: an identifier after them is used, not declared.
[[nodiscard]] bool is_expression_keyword(std::string_view t);
// Built-in type words (`unsigned`, `int`, `float`, ...) and `const`/`volatile`.
[[nodiscard]] bool is_builtin_type_word(std::string_view t);

// True when the identifier at `ci` is the name being declared: `#define NAME`, a function
// declaration or definition (`T NAME(`), a variable (`T NAME =`, `T NAME;`, `T NAME[`), a type
// (`struct NAME {`, `using NAME =`, `} NAME;` of a typedef) or a namespace.
[[nodiscard]] bool is_declared_name(const lex::CodeView& v, std::size_t ci);

// Widths of integer declarations as far as the type words tell.
enum class IntWidth : std::uint8_t { None, Narrow, Wide, Unknown };

// For the identifier at `ci`, the width its declaration there gives it: walks back over type
// words (`unsigned int`, `const uint32_t`, `unsigned long long`, `auto`). None when no type word
// precedes it (a use, not a declaration); Unknown for other types (a typedef, a class).
[[nodiscard]] IntWidth declared_width(const lex::CodeView& v, std::size_t ci);

// First code index of the kernel expression of a launch that ends at `last` (the token before
// `<<<`): `k`, `ns::k`, `obj.k`, `k<T, N>` (`templated`), `(*fn)`. npos when it is not a name
// we understand.
[[nodiscard]] std::size_t launch_kernel_start(const lex::CodeView& v, std::size_t last, bool& templated);

// Byte offset of the start of the line that holds `offset` in `src`.
[[nodiscard]] std::uint32_t line_start(std::string_view src, std::uint32_t offset);
// The code indices of the header names (`<path>` after #include), ascending: the lexer makes them
// only on a directive line after an `include`, `include_next` or `import` word.
[[nodiscard]] std::vector<std::uint32_t> header_names(const lex::CodeView& v);

// The code indices of the `#` of the conditional directives (#if, #ifdef, #ifndef, #elif, #else,
// #endif), ascending.
[[nodiscard]] std::vector<std::uint32_t> conditional_directives(const lex::CodeView& v);

// Whether the file includes a HIP header (`<hip/...>`, at any #if depth): it is HIP code already
// (a HIP output migrated again, or a tree that holds both), where a name CUDA and HIP share is
// HIP's own and takes no round-trip record.
[[nodiscard]] bool includes_hip_header(const lex::CodeView& v);
// True when `s` holds only spaces, tabs and carriage returns.
[[nodiscard]] bool only_blanks(std::string_view s);

}  // namespace ferry::targets::hip
