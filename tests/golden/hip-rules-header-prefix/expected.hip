// Framework code that puts the CUDA toolkit root on the include path and names the toolkit's
// headers through its include/ directory: mapped by the path after include/ (FRY5201).
#include "hip/hip_runtime.h"
#include "hip/hip_fp16.h"
#include <hiprand/hiprand_kernel.h>
#include <cstdio>

__global__ void noise(__half* out, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandState st;
  hiprand_init(seed, i, 0, &st);
  if (i < n) out[i] = __float2half(hiprand_uniform(&st));
}

int main() {
  __half* d = nullptr;
  hipMalloc(&d, 256 * sizeof(__half));
  noise<<<1, 256>>>(d, 42ull, 256);
  hipError_t e = hipDeviceSynchronize();
  std::printf("%s\n", hipGetErrorString(e));
  return hipFree(d) == hipSuccess ? 0 : 1;
}
