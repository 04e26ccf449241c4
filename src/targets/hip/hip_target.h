// CUDA → HIP (ROCm, AMD GPUs and Hygon DCU). Rules: rules/cuda2hip/*.tsv (with
// alt-rocblas/ replacing cublas.tsv under --blas=rocblas). Passes: see passes.h. Build files:
// buildsys/ (CMake, Makefiles, setup.py to the HIP toolchain).
#pragma once

#include "targets/target.h"

namespace ferry::targets::hip {

extern const TargetInfo kTarget;

}  // namespace ferry::targets::hip
