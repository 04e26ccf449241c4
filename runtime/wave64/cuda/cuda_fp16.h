// wave64 CPU runtime: <cuda_fp16.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
