// CUDA → HIP (ROCm, AMD GPUs and Hygon DCU). Rules: rules/cuda2hip/*.tsv (with
// alt-rocblas/ replacing cublas.tsv under --blas=rocblas). Passes: see passes.h.
#pragma once

#include <memory>

#include "targets/target.h"

namespace ferry::targets {

[[nodiscard]] std::unique_ptr<Target> make_hip_target(const Options& options);

}  // namespace ferry::targets
