// wave64 CPU runtime: <cuda_profiler_api.h>. cudaProfilerStart/Stop come with <cuda_runtime.h>
// (no-ops: there is no profiler on the CPU runtime).
#pragma once
#include "cuda_runtime.h"
