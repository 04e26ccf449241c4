// wave64 CPU runtime: <driver_types.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
