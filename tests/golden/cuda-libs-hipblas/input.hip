// hipBLAS, hipCUB and RCCL → cuBLAS, CUB and NCCL.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipcub/hipcub.hpp>
#include <rccl/rccl.h>
#include <hip/hip_fp16.h>

__global__ void block_sum(const float* x, float* out) {
  using Reduce = hipcub::BlockReduce<float, 256>;
  __shared__ typename Reduce::TempStorage tmp;
  float s = Reduce(tmp).Sum(x[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void to_half(const float* x, __half* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half(x[i]);
}

int gemm(const float* A, const float* B, float* C, int m, int n, int k, hipStream_t stream) {
  hipblasHandle_t handle;
  if (hipblasCreate(&handle) != HIPBLAS_STATUS_SUCCESS) return 1;
  hipblasSetStream(handle, stream);
  const float one = 1.f, zero = 0.f;
  hipblasStatus_t st = hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &one, A, m, B, n, &zero, C, m);
  hipblasDestroy(handle);
  return st == HIPBLAS_STATUS_SUCCESS ? 0 : 1;
}

int allreduce(float* buf, size_t count, ncclComm_t comm, hipStream_t stream) {
  return ncclAllReduce(buf, buf, count, ncclFloat, ncclSum, comm, stream) == ncclSuccess ? 0 : 1;
}
