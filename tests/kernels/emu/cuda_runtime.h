// Stand-in for <cuda_runtime.h> when kernels are compiled for the CPU emulator (cuda_emu.h);
// only on the include path of tests/kernels/.
#pragma once
#include "cuda_emu.h"
typedef struct emu_stream* cudaStream_t;
