// wave64 CPU runtime: <hip/math_functions.h> comes with <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
