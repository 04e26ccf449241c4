// CUDA → Ascend CANN: host code to AscendCL (aclrt*), NCCL to HCCL, cuBLAS GEMM to aclnn;
// __global__ kernels are not translated but get an Ascend C skeleton (docs/targets.md#cann).
#pragma once

#include <memory>

#include "targets/target.h"

namespace ferry::targets {

[[nodiscard]] std::unique_ptr<Target> make_cann_target(const Options& options);

}  // namespace ferry::targets
