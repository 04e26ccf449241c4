// Overloads CUDA has and a HIP release lacks, for argument types a file visibly uses: the file
// includes a compat header of templates that accept exactly those types, so they never compete
// with HIP's own overloads or a project's non-template definition (exact non-templates win).
//
// - atomic64.h: CUDA's atomicMin(long long*, long long) / atomicMax (compute capability 3.5 up);
//   HIP declares them from ROCm 5.7 (HIP 5.2 to 5.6: int, unsigned, unsigned long, unsigned long
//   long, float, double), so a reduction into a long long fails with "no matching function for
//   call to 'atomicMin'". For an older release, a file that calls an unqualified atomicMin or
//   atomicMax and names `long long` gets it (a compare-and-swap loop).
// - fp16_shfl.h: CUDA's warp shuffles of __half / __half2 (cuda_fp16.hpp); HIP 5.2's __shfl*
//   have no half overloads, so a __half value is "call to '__shfl_down' is ambiguous" and a
//   __half2 one has no matching function. A file that calls a warp shuffle and names a half type
//   gets it (the bits through the int shuffle), for every release (checked: HIP 5.2).
// A file whose calls reach these types only through a typedef declared elsewhere is not
// recognised. C files are left alone.
#include <array>
#include <span>
#include <string>

#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

// The first unqualified call of one of `names` in the file, once it also names one of `types`
// (a type word sequence of one or two tokens); npos otherwise.
template <std::size_t N, std::size_t M>
std::size_t call_with_type(const migrate::FileMigration& file, const std::array<std::string_view, N>& names,
                           const std::array<std::array<std::string_view, 2>, M>& types) {
  // A type word, and the first call of one of `names`: their occurrences only.
  bool names_type = false;
  for (const auto& t : types)
    for (const std::size_t ci : file.occurrences(t[0])) {
      // `long long`, not `unsigned long long` (HIP has that overload).
      if (ci < 1 || ci + 1 >= file.code_size()) continue;
      names_type = names_type || ((t[1].empty() || file.is(ci + 1, t[1])) &&
                                  !(t[0] == "long" && (file.is(ci - 1, "unsigned") || file.is(ci - 1, "long"))));
    }
  if (!names_type) return migrate::npos;
  std::size_t call = migrate::npos;
  for (const std::size_t ci : file.occurrences(std::span<const std::string_view>(names.data(), names.size()))) {
    if (ci < 1 || ci + 1 >= file.code_size() || !file.is(ci + 1, "(") || file.excluded(ci)) continue;
    const std::string_view prev = file.text(ci - 1);
    if (prev == "." || prev == "->" || prev == "::" || is_declared_name(file, ci)) continue;
    call = ci;
    break;
  }
  return names_type ? call : migrate::npos;
}

bool is_c_file(std::string_view path) { return path.ends_with(".c") || path.ends_with(".C"); }

}  // namespace

void atomic64_pass(migrate::FileMigration& file, bool release_lacks) {
  if (!release_lacks || is_c_file(file.path())) return;
  static constexpr std::array<std::string_view, 2> kNames = {"atomicMin", "atomicMax"};
  static constexpr std::array<std::array<std::string_view, 2>, 1> kTypes = {{{"long", "long"}}};
  if (const std::size_t call = call_with_type(file, kNames, kTypes); call != migrate::npos)
    file.require_compat("atomic64", std::string(file.text(call)), call);
}

void fp16_shfl_pass(migrate::FileMigration& file) {
  if (is_c_file(file.path())) return;
  static constexpr std::array<std::string_view, 8> kNames = {"__shfl",           "__shfl_up",      "__shfl_down",
                                                             "__shfl_xor",       "__shfl_sync",    "__shfl_up_sync",
                                                             "__shfl_down_sync", "__shfl_xor_sync"};
  static constexpr std::array<std::array<std::string_view, 2>, 4> kTypes = {
      {{"__half", ""}, {"half", ""}, {"__half2", ""}, {"half2", ""}}};
  if (const std::size_t call = call_with_type(file, kNames, kTypes); call != migrate::npos)
    file.require_compat("fp16_shfl", std::string(file.text(call)), call);
}

}  // namespace ferry::targets::hip
