// Header families: runtime, fp16, bf16, device launch parameters, cuRAND (host and device).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#include <cuda_fp16.h>
#include <curand.h>
#include <curand_kernel.h>
#include "my_cuda_utils.h"   // a project header keeps its name
#include <vector>

__global__ void to_half(const float* x, __half* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half(x[i]);
}
