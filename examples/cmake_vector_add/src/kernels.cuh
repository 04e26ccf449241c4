#pragma once
#include <cuda_runtime.h>

// c = a + b over n elements, on the default stream.
cudaError_t vector_add(const float* a, const float* b, float* c, int n);
