// HIP → CUDA (NVIDIA GPUs). Rules: the inverse of rules/cuda2hip/*.tsv plus rules/hip2cuda/*.tsv
// (see reverse_rules.h). Passes: see passes.h.
#pragma once

#include <memory>

#include "targets/target.h"

namespace ferry::targets {

[[nodiscard]] std::unique_ptr<Target> make_cuda_target(const Options& options);

}  // namespace ferry::targets
