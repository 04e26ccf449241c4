// The CUDA -> HIP target casts a built-in index passed to printf, `(unsigned int)threadIdx.x`,
// because HIP's built-ins are property objects that clang's AMDGPU printf rejects as variadic
// arguments. In CUDA they are unsigned ints already, so the way back drops exactly that cast:
//   printf("%u\n", (unsigned int)blockIdx.x)    ->    printf("%u\n", blockIdx.x)
// HIP -> CUDA -> HIP -> CUDA is then a fixed point. Only a whole printf argument of that form is
// touched; any other cast, or the cast inside a larger expression, is the user's and stays.
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {

void printf_cast_pass(migrate::FileMigration& file) {
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is(ci, "printf") || !file.is(ci + 1, "(") || file.code(ci).in_directive || file.excluded(ci) ||
        (file.is_member_or_qualified(ci) && !(ci > 1 && file.is(ci - 1, "::") && file.is(ci - 2, "std"))))
      continue;
    for (const lex::ArgRange& a : file.call_args(ci + 1)) {
      // `( unsigned int ) threadIdx . x`: seven tokens.
      if (a.last != a.first + 6 || !file.is(a.first, "(") || !file.is(a.first + 1, "unsigned") ||
          !file.is(a.first + 2, "int") || !file.is(a.first + 3, ")") || !file.is(a.first + 5, "."))
        continue;
      const std::size_t b = a.first + 4;
      const bool builtin =
          file.is(b, "threadIdx") || file.is(b, "blockIdx") || file.is(b, "blockDim") || file.is(b, "gridDim");
      const bool axis = file.is(a.last, "x") || file.is(a.last, "y") || file.is(a.last, "z");
      if (!builtin || !axis || file.touched(a.first)) continue;
      if (file.replace_bytes(file.code(a.first).begin, file.code(b).begin, "")) file.count_converted("dialect");
    }
  }
}

}  // namespace ferry::targets::cuda
