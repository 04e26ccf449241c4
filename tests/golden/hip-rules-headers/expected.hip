// Header families: runtime, fp16, bf16, device launch parameters, cuRAND (host and device).
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
/* ferry-cuda: #include <cuda_runtime.h> */
/* ferry-cuda: #include <cuda_runtime_api.h> */
/* ferry-cuda: #include <device_launch_parameters.h> */
#include <hip/hip_fp16.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>
#include "my_cuda_utils.h"   // a project header keeps its name
#include <vector>

__global__ void to_half(const float* x, __half* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half(x[i]);
}
