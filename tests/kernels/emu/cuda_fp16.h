// Stand-in for <cuda_fp16.h> under the CPU emulator: __half and its conversions are in cuda_emu.h.
#pragma once
#include "cuda_emu.h"
