// wave64 CPU runtime: <vector_functions.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
