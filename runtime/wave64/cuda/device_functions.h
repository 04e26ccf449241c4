// wave64 CPU runtime: <device_functions.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
