#include <string>
#include <vector>

#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

// The token texts of the CUDA → HIP target's __syncwarp() replacement
// (src/targets/hip/warp_intrinsics_pass.cpp, kSyncWarp).
constexpr std::string_view kForwardSyncWarp[] = {"(",
                                                 "__builtin_amdgcn_fence",
                                                 "(",
                                                 "__ATOMIC_RELEASE",
                                                 ",",
                                                 "\"wavefront\"",
                                                 ")",
                                                 ",",
                                                 "__builtin_amdgcn_wave_barrier",
                                                 "(",
                                                 ")",
                                                 ",",
                                                 "__builtin_amdgcn_fence",
                                                 "(",
                                                 "__ATOMIC_ACQUIRE",
                                                 ",",
                                                 "\"wavefront\"",
                                                 ")",
                                                 ")"};

}  // namespace

void syncwarp_pass(migrate::FileMigration& file) {
  constexpr std::size_t n = std::size(kForwardSyncWarp);
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.excluded(ci)) continue;
    if (file.is(ci, "(") && file.is(ci + 1, "__builtin_amdgcn_fence")) {
      bool match = ci + n <= file.code_size();
      for (std::size_t k = 0; match && k < n; ++k) match = file.is(ci + k, kForwardSyncWarp[k]);
      if (match && file.replace(ci, ci + n - 1, "__syncwarp()")) {
        file.count_converted("device");
        ci += n - 1;
      }
      continue;
    }
    if (file.is(ci, "__builtin_amdgcn_wave_barrier") && file.is(ci + 1, "(") && file.is(ci + 2, ")") &&
        !file.touched(ci) && file.replace(ci, ci + 2, "__syncwarp()"))
      file.count_converted("device");
  }
}

}  // namespace ferry::targets::cuda
