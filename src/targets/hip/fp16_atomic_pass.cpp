// CUDA's half-precision atomicAdd for HIP, which has none.
//
// CUDA has atomicAdd(__half*, __half) and atomicAdd(__half2*, __half2) (compute capability 7.0 and
// 6.0 up); no HIP release's headers declare them (checked up to ROCm 6.2), so a migrated reduction
// into halves fails with "no matching function for call to 'atomicAdd'" (BBuf's
// how-to-optim-algorithm-in-cuda, fast-atomic-add). A file that calls an unqualified atomicAdd and
// names a half type (__half, half, __half2, half2) gets Ferry's compat header
// ferry/compat/fp16_atomic.h: templates that accept exactly __half* / __half2*, so they never
// compete with HIP's own overloads or a project's non-template definition (those win). A file whose
// calls take halves only through its own typedef or a template parameter, and names no half type
// itself, is not recognised (it gets the error as before). C files are left alone.
#include <array>
#include <string>

#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {

void fp16_atomic_pass(migrate::FileMigration& file) {
  const std::string_view path = file.path();
  if (path.ends_with(".c") || path.ends_with(".C")) return;
  static constexpr std::array<std::string_view, 4> kHalf = {"__half", "half", "__half2", "half2"};
  // A half type named, and the first plain call of atomicAdd: their occurrences only.
  bool names_half = false;
  for (const std::size_t ci : file.occurrences(kHalf))
    names_half = names_half || (ci >= 1 && ci + 1 < file.code_size());
  if (!names_half) return;
  std::size_t call = 0;
  for (const std::size_t ci : file.occurrences("atomicAdd")) {
    if (ci < 1 || ci + 1 >= file.code_size() || !file.is(ci + 1, "(") || file.excluded(ci)) continue;
    const std::string_view prev = file.text(ci - 1);
    if (prev == "." || prev == "->" || prev == "::" || is_declared_name(file, ci)) continue;
    call = ci;
    break;
  }
  if (names_half && call) file.require_compat("fp16_atomic", "atomicAdd", call);
}

}  // namespace ferry::targets::hip
