// A CUDA header included with quotes, which the target HIP release lacks (Ferry's compat header
// stands for it there): the way back gives the quoted spelling.
#pragma once
#include "math_constants.h"

__device__ inline float half_turn(float x) { return x * CUDART_PI_F; }
