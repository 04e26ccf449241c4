// Dropout mask with cuRAND's device API (one Philox state per thread).
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void init_states(curandStatePhilox4_32_10_t* states, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) curand_init(seed, i, 0, &states[i]);
}

__global__ void dropout(const float* x, float* y, float p, curandStatePhilox4_32_10_t* states, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  curandStatePhilox4_32_10_t local = states[i];
  float u = curand_uniform(&local);
  y[i] = u < p ? 0.f : x[i] / (1.f - p);
  states[i] = local;
}

__global__ void noise(float* y, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, i, 0, &st);
  if (i < n) y[i] = curand_normal(&st);
}
