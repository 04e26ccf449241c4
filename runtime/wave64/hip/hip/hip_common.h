// wave64 CPU runtime: <hip/hip_common.h> comes with <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
