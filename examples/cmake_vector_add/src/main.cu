#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <curand.h>

#include "kernels.cuh"

std::size_t count_mismatches(const float* a, const float* b, const float* c, std::size_t n);

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t err_ = (x);                                                   \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(err_));         \
      return 1;                                                               \
    }                                                                         \
  } while (0)

int main() {
  const int n = 1 << 20;
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandGenerateUniform(gen, a, n);
  curandGenerateUniform(gen, b, n);
  CHECK(vector_add(a, b, c, n));
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ha(n), hb(n), hc(n);
  CHECK(cudaMemcpy(ha.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
  const std::size_t bad = count_mismatches(ha.data(), hb.data(), hc.data(), n);
  std::printf("vector_add: %d elements, %zu mismatches\n", n, bad);
  curandDestroyGenerator(gen);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return bad == 0 ? 0 : 1;
}
