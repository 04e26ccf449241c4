// wave64 CPU runtime: <cuda_device_runtime_api.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
