// With HIP_TEMPLATE_KERNEL_LAUNCH, hipLaunchKernelGGL is a function template: the commas of the
// kernel's template arguments need no parentheses. Device lambdas need --extended-lambda (the
// build files get it; verify retries with it).
#define HIP_TEMPLATE_KERNEL_LAUNCH
#include <cuda_runtime.h>

template <int BlockSize, int WarpSize, int Items>
__global__ void scale(float* p, float f) {
  p[blockIdx.x * BlockSize + threadIdx.x] *= f * (WarpSize / 32) * Items;
}

void run(float* p, int n, cudaStream_t s) {
  scale<256, 32, 1><<<dim3(n / 256), dim3(256), 0, s>>>(p, 2.0f);
  scale<128, (64 >> 1), 2><<<dim3(n / 128), dim3(128), 0, cudaStreamDefault>>>(p, 0.5f);
}
