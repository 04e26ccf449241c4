// What nvcc accepts and clang rejects in C++17 (hipcc compiles .cu as C++17 HIP).
//
// `register` was removed from C++17: clang makes it an error under -std=c++17 or later (clang
// 16's default, so hipcc's from ROCm 6), nvcc only warns. It has no meaning for code generation,
// so the keyword is dropped (FRY5202). C files keep it (valid C), and so do GNU explicit register
// variables (`register int r asm("...")`), which clang accepts.
//
// CUDART_CB and CUDA_CB, the calling convention of stream and host callbacks (`void CUDART_CB
// cb(hipStream_t, hipError_t, void*)`), are empty on Linux and `__stdcall` on Windows; HIP has no
// such macro, so an unknown name would break the declaration. They are removed (no diagnostic),
// except in directives (a project's own `#define CUDART_CB`). So is `__grid_constant__` on a
// `const` kernel parameter (CUDA 11.7: pass by reference into constant memory), which HIP lacks;
// the parameter stays `const`, so the kernel means the same.
//
// clang 15's AMDGPU printf rejects HIP's `threadIdx.x`, `blockIdx.y`, ... as a variadic argument
// ("cannot compile this non-scalar arg to printf yet": they are property objects, where CUDA's
// are unsigned ints). Such an argument of printf gets `(unsigned int)`, CUDA's own type.
//
// A string literal written against a reserved name, `extern "C"__global__`, is two tokens for
// nvcc and the lexer, but clang reads a user-defined literal and rejects it: an added record
// goes between them, `"C"/* ferry-cuda: (none) */__global__` (a comment separates tokens as a
// blank does; FRY5202's family, no diagnostic: nothing changes in meaning).
//
// A variable-length array with an initializer (`T a[n] = {0};`, n a parameter of the enclosing
// function): GCC, nvcc's host compiler, accepts it as an extension; clang rejects it ("variable-
// sized object may not be initialized"). `= {0}` and `= {}` zero the array; for arithmetic
// types, pointers and `_t` typedefs (handles, C structs) that is all-zero bytes, so the
// initializer becomes `__builtin_memset(a, 0, sizeof(a))` after the declaration (FRY5203). Other
// element types, and other initializers, are left with FRY5204 (a warning: it will not compile).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "analysis/names.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using lex::npos;

bool is_c_file(std::string_view path) {
  return path.size() >= 2 && (path.ends_with(".c") || path.ends_with(".C")) && !path.ends_with(".cc");
}

// True when the declaration from `ci` to its `;` carries an asm label (`asm("r0")`).
bool has_asm_label(const migrate::FileMigration& file, std::size_t ci) {
  for (std::size_t i = ci + 1; i < file.code_size(); ++i) {
    if (file.is(i, ";") || file.is(i, "{") || file.is(i, "}")) return false;
    if (file.is(i, "asm") || file.is(i, "__asm__") || file.is(i, "__asm")) return true;
  }
  return false;
}

// The file's `{` and `}` tokens, the only ones enclosing_parameters stops at: their code indices
// (ascending) and, for a `}` whose `{` comes before it, the position of that `{` in `at`.
struct Braces {
  std::vector<std::uint32_t> at;
  std::vector<std::uint32_t> open_of;  // per position; kNone when the `}` has no partner before it
  static constexpr std::uint32_t kNone = 0xffffffffu;
};
Braces brace_tokens(const migrate::FileMigration& file) {
  Braces b;
  const std::uint64_t lbrace = lex::short_key("{"), rbrace = lex::short_key("}");
  const std::size_t n = file.code_size();
  for (std::size_t ci = analysis::detail::next_key(file, 0, n, lbrace, rbrace); ci < n;
       ci = analysis::detail::next_key(file, ci + 1, n, lbrace, rbrace))
    b.at.push_back(static_cast<std::uint32_t>(ci));
  b.open_of.assign(b.at.size(), Braces::kNone);
  for (std::size_t p = 0; p < b.at.size(); ++p) {
    const std::size_t open = file.is(b.at[p], "}") ? file.partner(b.at[p]) : npos;
    if (open != npos && open < b.at[p])
      b.open_of[p] = static_cast<std::uint32_t>(
          std::lower_bound(b.at.begin(), b.at.begin() + static_cast<std::ptrdiff_t>(p), open) - b.at.begin());
  }
  return b;
}

// The `{` of the function body around `ci` and so its parameter list: the `(` whose `)` comes
// right before that `{`. npos when `ci` is not inside a function body. Walks back over the braces
// before `ci`.
std::size_t enclosing_parameters(const migrate::FileMigration& file, std::size_t ci, const Braces& braces) {
  for (std::size_t p =
           static_cast<std::size_t>(std::lower_bound(braces.at.begin(), braces.at.end(), ci) - braces.at.begin());
       p-- > 0;) {
    const std::size_t i = braces.at[p];
    // A block closed before `ci` encloses nothing of it: step over it whole, so that a file of
    // many functions is not read back to its start for each candidate.
    if (file.is(i, "}")) {
      if (braces.open_of[p] != Braces::kNone) p = braces.open_of[p];
      continue;
    }
    const std::size_t close = file.match_bracket(i);
    if (close == npos || close < ci) continue;
    std::size_t r = i;
    while (r > 0 && (file.is(r - 1, "const") || file.is(r - 1, "noexcept") || file.is(r - 1, "override"))) --r;
    if (r > 0 && file.is(r - 1, ")")) return file.partner(r - 1);
  }
  return npos;
}

bool names_parameter(const migrate::FileMigration& file, std::size_t open, std::string_view name) {
  const std::size_t close = file.match_bracket(open);
  if (close == npos) return false;
  for (std::size_t i = open + 1; i < close; ++i)
    if (file.is_identifier(i) && file.text(i) == name && (file.is(i + 1, ",") || file.is(i + 1, ")"))) return true;
  return false;
}

// Element types whose value-initialization is all-zero bytes, by the words of the declaration.
bool zero_bytes_type(const migrate::FileMigration& file, std::size_t first, std::size_t name) {
  static constexpr std::string_view kWords[] = {"const", "unsigned", "signed", "int",    "long",   "short",  "char",
                                                "float", "double",   "bool",   "size_t", "static", "__half", "half"};
  bool any = false;
  for (std::size_t i = first; i < name; ++i) {
    if (file.is(i, "*")) return true;
    if (!file.is_identifier(i)) return false;
    const std::string_view w = file.text(i);
    if (std::find(std::begin(kWords), std::end(kWords), w) == std::end(kWords) && !w.ends_with("_t")) return false;
    any = true;
  }
  return any;
}

// `T name[bound] = {...};` in a function body, `bound` one of its parameters.
void initialized_vla(migrate::FileMigration& file) {
  std::optional<Braces> braces;
  if (file.code_size() <= 6) return;
  // Most tokens are no `[`: they are passed on their keys alone (next_key).
  const std::uint64_t bracket = lex::short_key("[");
  for (std::size_t ci = 1, end = file.code_size() - 5; (ci = analysis::detail::next_key(file, ci, end, bracket)) < end;
       ++ci) {
    if (!file.is_identifier(ci - 1) || !file.is_identifier(ci + 1) || !file.is(ci + 2, "]") || !file.is(ci + 3, "=") ||
        !file.is(ci + 4, "{") || file.code(ci).in_directive || file.excluded(ci))
      continue;
    const std::size_t brace_end = file.match_bracket(ci + 4);
    if (brace_end == npos || !file.is(brace_end + 1, ";")) continue;
    if (!braces) braces = brace_tokens(file);  // built for the first candidate
    const std::size_t params = enclosing_parameters(file, ci, *braces);
    if (params == npos || !names_parameter(file, params, file.text(ci + 1))) continue;
    // The start of the declaration.
    std::size_t first = ci - 1;
    while (first > 0 && !file.is(first - 1, ";") && !file.is(first - 1, "{") && !file.is(first - 1, "}")) --first;
    const std::string name(file.text(ci - 1));
    const bool zero = brace_end == ci + 5 || (brace_end == ci + 6 && file.is(ci + 5, "0"));
    // Recorded (rewrite/roundtrip_record.h, moved initializer) after the bound's `]`:
    // `a[n] /* ferry-cuda:  = {0}; */; __builtin_memset(a, 0, sizeof(a));`.
    const std::string_view tail =
        file.source().substr(file.code(ci + 2).end, file.code(brace_end + 1).end - file.code(ci + 2).end);
    const std::string record = rewrite::record::recordable(tail) && tail.find('\n') == std::string_view::npos
                                   ? " " + rewrite::record::make(tail)
                                   : std::string();
    if (zero && first < ci - 1 && zero_bytes_type(file, first, ci - 1) &&
        file.replace_bytes(file.code(ci + 2).end, file.code(brace_end + 1).end,
                           record + "; __builtin_memset(" + name + ", 0, sizeof(" + name + "));")) {
      file.count_converted("dialect");
      file.diag(Diag::VlaInitializerMoved, ci - 1,
                "'" + name + "' is a variable-length array (its bound '" + std::string(file.text(ci + 1)) +
                    "' is a parameter): clang rejects an initializer on it, nvcc's host compiler accepts it; "
                    "the zero initializer became a memset after the declaration",
                "nothing to do; or give the array a constant bound or a std::vector in the CUDA source too");
      continue;
    }
    file.diag(Diag::VlaInitializerLeft, ci - 1,
              "'" + name + "' is a variable-length array (its bound '" + std::string(file.text(ci + 1)) +
                  "' is a parameter) with an initializer: clang rejects it, nvcc's host compiler accepts it; left "
                  "unchanged",
              "give the array a constant bound or use a std::vector, or assign the elements after the declaration");
  }
}

}  // namespace

void dialect_pass(migrate::FileMigration& file) {
  const std::string_view src = file.source();
  for (const std::size_t ci : file.occurrences({"CUDART_CB", "CUDA_CB", "__grid_constant__"})) {
    if (!(file.is(ci, "CUDART_CB") || file.is(ci, "CUDA_CB") || file.is(ci, "__grid_constant__")) ||
        file.code(ci).in_directive || file.excluded(ci) || file.touched(ci))
      continue;
    std::uint32_t end = file.code(ci).end;
    while (end < src.size() && (src[end] == ' ' || src[end] == '\t')) ++end;
    if (file.replace_bytes(file.code(ci).begin, end,
                           rewrite::record::dropped_word(src.substr(file.code(ci).begin, end - file.code(ci).begin))))
      file.count_converted("dialect");
  }
  const lex::TokenList& toks = file.tokens();
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    const lex::Kind kind = toks.kind(file.token_index(ci));
    if (kind != lex::Kind::String && kind != lex::Kind::RawString) continue;  // (tested first: cheap)
    const auto& lit = file.code(ci);
    const auto& next = file.code(ci + 1);
    if (lit.end != next.begin || (lit.kind != lex::Kind::String && lit.kind != lex::Kind::RawString) ||
        !src.substr(next.begin, 2).starts_with("__") || lit.in_directive || file.excluded(ci + 1))
      continue;
    // the separator is an added record, glued to both (a comment separates tokens as a blank
    // does), so the way back removes it and gives the text as written (rewrite/roundtrip_record.h)
    if (file.replace_bytes(next.begin, next.begin, std::string(rewrite::record::kAdded)))
      file.count_converted("dialect");
  }
  for (const std::size_t ci : file.occurrences("printf")) {
    if (!file.is(ci, "printf") || !file.is(ci + 1, "(") || file.code(ci).in_directive ||
        (file.is_member_or_qualified(ci) && !(ci > 0 && file.is(ci - 1, "::") && file.is(ci - 2, "std"))))
      continue;
    for (const lex::ArgRange& a : file.call_args(ci + 1)) {
      if (a.last != a.first + 2 || !file.is(a.first + 1, ".") || file.excluded(a.first) || file.touched(a.first))
        continue;
      const bool builtin = file.is(a.first, "threadIdx") || file.is(a.first, "blockIdx") ||
                           file.is(a.first, "blockDim") || file.is(a.first, "gridDim");
      const bool axis = file.is(a.last, "x") || file.is(a.last, "y") || file.is(a.last, "z");
      if (builtin && axis && file.insert_before(a.first, "(unsigned int)")) file.count_converted("dialect");
    }
  }
  if (is_c_file(file.path())) return;
  initialized_vla(file);
  for (const std::size_t ci : file.occurrences("register")) {
    if (!file.is(ci, "register") || file.code(ci).in_directive || file.excluded(ci) || file.touched(ci)) continue;
    if (has_asm_label(file, ci)) continue;
    // The keyword and the blanks after it: `register int x` -> `int x`.
    std::uint32_t end = file.code(ci).end;
    while (end < src.size() && (src[end] == ' ' || src[end] == '\t')) ++end;
    if (!file.replace_bytes(file.code(ci).begin, end,
                            rewrite::record::dropped_word(src.substr(file.code(ci).begin, end - file.code(ci).begin))))
      continue;
    file.count_converted("dialect");
    file.diag(Diag::RegisterRemoved, ci,
              "'register' is not allowed in C++17 (clang rejects it; nvcc only warns); the keyword, "
              "which has no effect, was removed",
              "nothing to do; drop it from the CUDA source too (nvcc warns about it)");
  }
}

}  // namespace ferry::targets::hip
