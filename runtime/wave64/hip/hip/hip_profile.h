// wave64 CPU runtime: <hip/hip_profile.h> comes with <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
