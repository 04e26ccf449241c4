// wave64 CPU runtime: <hip/hip_bfloat16.h> comes with <hip/hip_runtime.h>; the same names as
// <hip/hip_bf16.h>.
#pragma once
#include "hip/hip_bf16.h"
