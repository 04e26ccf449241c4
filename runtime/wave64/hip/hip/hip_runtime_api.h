// wave64 CPU runtime: <hip/hip_runtime_api.h> comes with <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
