// Error handling: checking macros, error strings, sticky errors, errors in conditions.
#include <cstdio>
#include <cstdlib>
#include <nccl.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                \
  do {                                                                                  \
    cudaError_t err_ = (call);                                                          \
    if (err_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));    \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

#define NCCL_CHECK(call)                                                                \
  do {                                                                                  \
    ncclResult_t r_ = (call);                                                           \
    if (r_ != ncclSuccess) {                                                            \
      fprintf(stderr, "nccl: %s\n", ncclGetErrorString(r_));                            \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

cudaError_t alloc(float **p, size_t n) {
  cudaError_t e = cudaMalloc(p, n * sizeof(float));
  if (e != cudaSuccess) return e;
  return cudaMemset(*p, 0, n * sizeof(float));
}

int checked(ncclComm_t comm, float *buf, size_t n, cudaStream_t stream) {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 1;
  CUDA_CHECK(cudaStreamSynchronize(stream));
  NCCL_CHECK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, stream));
  cudaError_t sticky = cudaGetLastError();
  if (sticky != cudaSuccess) fprintf(stderr, "%s\n", cudaGetErrorString(sticky));
  if (cudaPeekAtLastError() != cudaSuccess) return 2;
  return 0;
}
