// HIP → CUDA (NVIDIA GPUs). Rules: the inverse of rules/cuda2hip/*.tsv plus rules/hip2cuda/*.tsv
// (see reverse_rules.h). Passes: see passes.h.
#pragma once

#include "targets/target.h"

namespace ferry::targets::cuda {

extern const TargetInfo kTarget;

}  // namespace ferry::targets::cuda
