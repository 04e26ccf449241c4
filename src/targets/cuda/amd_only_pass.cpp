#include <string>

#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {

void amd_only_pass(migrate::FileMigration& file) {
  const rules::RuleSet& rules = file.target().rules();
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.excluded(ci) || file.touched(ci)) continue;
    const std::string name(file.text(ci));
    if (file.is_member_or_qualified(ci)) continue;
    if (name.starts_with("__builtin_amdgcn_")) {
      file.count_unconverted("device");
      file.diag(Diag::AmdgcnBuiltin, ci, "'" + name + "' is an AMD GCN builtin with no CUDA equivalent; left unchanged",
                "use the portable intrinsic it implements (__shfl_*_sync, __ballot_sync, "
                "__syncwarp, __threadfence_block), or guard it with #ifdef __HIP_PLATFORM_AMD__");
    } else if (name.starts_with("hipExt") && !rules.find_identifier(name)) {
      file.count_unconverted("runtime");
      file.diag(Diag::HipExtApi, ci,
                "'" + name +
                    "' is an AMD extension of the HIP runtime with no CUDA equivalent; "
                    "left unchanged",
                "use the standard runtime call (e.g. cudaLaunchKernel, cudaMalloc with "
                "cudaMemAdvise, cudaStreamCreateWithFlags) or guard it with #ifdef __HIP_PLATFORM_AMD__");
    } else if (name.starts_with("__AMDGCN_") && !rules.find_identifier(name)) {
      file.count_unconverted("device");
      file.diag(Diag::AmdgcnMacro, ci,
                "'" + name + "' is an AMD target macro; it is not defined when compiling for NVIDIA",
                "code under it will not be compiled by nvcc; check the #if branches that use it");
    } else if (name == "asm" || name == "__asm__" || name == "__asm") {
      std::size_t open = ci + 1;
      while (file.is(open, "volatile") || file.is(open, "__volatile__") || file.is(open, "goto")) ++open;
      if (!file.is(open, "(")) continue;
      file.count_unconverted("device");
      file.diag(Diag::GcnInlineAsm, ci,
                "inline assembly in HIP code is GCN assembly and cannot run on NVIDIA; left unchanged",
                "replace it with the intrinsic it implements or with PTX, or guard it with "
                "#ifdef __HIP_PLATFORM_AMD__");
    }
  }
}

}  // namespace ferry::targets::cuda
