// wave64 CPU runtime: <sm_32_intrinsics.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
