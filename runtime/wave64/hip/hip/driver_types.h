// wave64 CPU runtime: <hip/driver_types.h> comes with <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
