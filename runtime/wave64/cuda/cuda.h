// wave64 CPU runtime: <cuda.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
