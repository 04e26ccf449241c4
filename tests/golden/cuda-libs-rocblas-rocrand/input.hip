// rocBLAS and rocRAND → cuBLAS and cuRAND.
#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>
#include <rocrand/rocrand.h>

int gemm(const float* A, const float* B, float* C, int m, int n, int k) {
  rocblas_handle handle;
  rocblas_create_handle(&handle);
  const float one = 1.f, zero = 0.f;
  rocblas_status st = rocblas_sgemm(handle, rocblas_operation_none, rocblas_operation_transpose, m, n, k,
                                    &one, A, m, B, n, &zero, C, m);
  rocblas_destroy_handle(handle);
  return st == rocblas_status_success ? 0 : 1;
}

int uniform(float* d, size_t n, unsigned long long seed) {
  rocrand_generator gen;
  if (rocrand_create_generator(&gen, ROCRAND_RNG_PSEUDO_DEFAULT) != ROCRAND_STATUS_SUCCESS) return 1;
  rocrand_set_seed(gen, seed);
  rocrand_status st = rocrand_generate_uniform(gen, d, n);
  rocrand_destroy_generator(gen);
  return st == ROCRAND_STATUS_SUCCESS ? 0 : 1;
}
