// wave64 CPU runtime: <device_launch_parameters.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
