// Constant-memory coefficients of a 1-D convolution, set and read back by symbol.
#include <hip/hip_runtime.h>

#define KSIZE 7
__constant__ float c_kernel[KSIZE];
__device__ int d_calls;

__global__ void conv1d(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int k = 0; k < KSIZE; ++k) {
    int j = i + k - KSIZE / 2;
    if (j >= 0 && j < n) acc += c_kernel[k] * x[j];
  }
  y[i] = acc;
  if (i == 0) atomicAdd(&d_calls, 1);
}

int setup(const float* h_kernel, hipStream_t s) {
  hipMemcpyToSymbol(HIP_SYMBOL(c_kernel), h_kernel, KSIZE * sizeof(float));
  hipMemcpyToSymbolAsync(HIP_SYMBOL(c_kernel), h_kernel, sizeof(float), 0, hipMemcpyHostToDevice, s);
  int calls = 0;
  hipMemcpyFromSymbol(&calls, HIP_SYMBOL(d_calls), sizeof(int));
  int* p = nullptr;
  hipGetSymbolAddress((void**)&p, HIP_SYMBOL(d_calls));
  return calls + (p != nullptr);
}
