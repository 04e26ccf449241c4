// CUDA → Ascend CANN: host code to AscendCL (aclrt*), NCCL to HCCL, cuBLAS GEMM to aclnn;
// __global__ kernels are not translated but get an Ascend C skeleton (docs/targets.md#cann).
#pragma once

#include "targets/target.h"

namespace ferry::targets::cann {

extern const TargetInfo kTarget;

}  // namespace ferry::targets::cann
