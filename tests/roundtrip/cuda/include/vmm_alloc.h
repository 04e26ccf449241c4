// The driver API comes in through this header; the unit that includes it has no include of its own.
#pragma once
#include <cuda.h>
#include <cstddef>

CUresult reserve_and_map(CUdeviceptr *ptr, size_t size, int device);
