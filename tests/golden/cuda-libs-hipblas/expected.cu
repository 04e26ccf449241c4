// hipBLAS, hipCUB and RCCL → cuBLAS, CUB and NCCL.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cub/cub.cuh>
#include <nccl.h>
#include <cuda_fp16.h>

__global__ void block_sum(const float* x, float* out) {
  using Reduce = cub::BlockReduce<float, 256>;
  __shared__ typename Reduce::TempStorage tmp;
  float s = Reduce(tmp).Sum(x[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void to_half(const float* x, __half* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half(x[i]);
}

int gemm(const float* A, const float* B, float* C, int m, int n, int k, cudaStream_t stream) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasSetStream(handle, stream);
  const float one = 1.f, zero = 0.f;
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &one, A, m, B, n, &zero, C, m);
  cublasDestroy(handle);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}

int allreduce(float* buf, size_t count, ncclComm_t comm, cudaStream_t stream) {
  return ncclAllReduce(buf, buf, count, ncclFloat, ncclSum, comm, stream) == ncclSuccess ? 0 : 1;
}
