// rocBLAS and rocRAND → cuBLAS and cuRAND.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <curand.h>

int gemm(const float* A, const float* B, float* C, int m, int n, int k) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.f, zero = 0.f;
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k,
                                    &one, A, m, B, n, &zero, C, m);
  cublasDestroy(handle);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}

int uniform(float* d, size_t n, unsigned long long seed) {
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) return 1;
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  curandStatus_t st = curandGenerateUniform(gen, d, n);
  curandDestroyGenerator(gen);
  return st == CURAND_STATUS_SUCCESS ? 0 : 1;
}
