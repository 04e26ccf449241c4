// Dropout mask with cuRAND's device API (one Philox state per thread).
#include <hip/hip_runtime.h>
#include <hiprand/hiprand_kernel.h>

__global__ void init_states(hiprandStatePhilox4_32_10_t* states, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) hiprand_init(seed, i, 0, &states[i]);
}

__global__ void dropout(const float* x, float* y, float p, hiprandStatePhilox4_32_10_t* states, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  hiprandStatePhilox4_32_10_t local = states[i];
  float u = hiprand_uniform(&local);
  y[i] = u < p ? 0.f : x[i] / (1.f - p);
  states[i] = local;
}

__global__ void noise(float* y, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandState st;
  hiprand_init(seed, i, 0, &st);
  if (i < n) y[i] = hiprand_normal(&st);
}
