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
// nvcc and the lexer, but clang reads a user-defined literal and rejects it: a space goes
// between them (FRY5202's family, no diagnostic: nothing changes in meaning).
#include <string>

#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

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

}  // namespace

void dialect_pass(migrate::FileMigration& file) {
  const std::string_view src = file.source();
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!(file.is(ci, "CUDART_CB") || file.is(ci, "CUDA_CB") || file.is(ci, "__grid_constant__")) ||
        file.code(ci).in_directive || file.excluded(ci) || file.touched(ci))
      continue;
    std::uint32_t end = file.code(ci).end;
    while (end < src.size() && (src[end] == ' ' || src[end] == '\t')) ++end;
    if (file.replace_bytes(file.code(ci).begin, end, "")) file.count_converted("dialect");
  }
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    const auto& lit = file.code(ci);
    const auto& next = file.code(ci + 1);
    if (lit.end != next.begin || (lit.kind != lex::Kind::String && lit.kind != lex::Kind::RawString) ||
        !src.substr(next.begin, 2).starts_with("__") || lit.in_directive || file.excluded(ci + 1))
      continue;
    if (file.replace_bytes(next.begin, next.begin, " ")) file.count_converted("dialect");
  }
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
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
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is(ci, "register") || file.code(ci).in_directive || file.excluded(ci) || file.touched(ci)) continue;
    if (has_asm_label(file, ci)) continue;
    // The keyword and the blanks after it: `register int x` -> `int x`.
    std::uint32_t end = file.code(ci).end;
    while (end < src.size() && (src[end] == ' ' || src[end] == '\t')) ++end;
    if (!file.replace_bytes(file.code(ci).begin, end, "")) continue;
    file.count_converted("dialect");
    file.diag(Diag::RegisterRemoved, ci,
              "'register' is not allowed in C++17 (clang rejects it; nvcc only warns); the keyword, "
              "which has no effect, was removed",
              "nothing to do; drop it from the CUDA source too (nvcc warns about it)");
  }
}

}  // namespace ferry::targets::hip
