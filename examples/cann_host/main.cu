// A small data-parallel host program: CUDA runtime, NCCL and cuBLAS. Migrate it to Ascend with
//   ferry migrate examples/cann_host -o /tmp/cann_host_out --to cann
// (see README.md for what the report asks you to finish by hand).
#include <cstdio>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

__global__ void relu(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < 0.0f) x[i] = 0.0f;
}

int main(int argc, char **argv) {
  const int rank = argc > 1 ? atoi(argv[1]) : 0;
  const int nranks = argc > 2 ? atoi(argv[2]) : 1;
  const int m = 256, n = 128, k = 64;
  cudaSetDevice(rank);

  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, stream);

  float *A, *B, *C;
  cudaMalloc(&A, m * k * sizeof(float));
  cudaMalloc(&B, k * n * sizeof(float));
  cudaMalloc(&C, m * n * sizeof(float));
  std::vector<float> host(m * k, 1.0f);
  cudaMemcpy(A, host.data(), m * k * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(B, 0, k * n * sizeof(float));

  const float alpha = 1.0f;
  const float beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, B, k, &beta, C, m);
  relu<<<(m * n + 255) / 256, 256, 0, stream>>>(C, m * n);

  ncclUniqueId id;
  if (rank == 0) ncclGetUniqueId(&id);  // share it with the other ranks (MPI_Bcast, a file, ...)
  ncclComm_t comm;
  ncclCommInitRank(&comm, nranks, id, rank);
  ncclAllReduce(C, C, m * n, ncclFloat, ncclSum, comm, stream);
  ncclBroadcast(C, C, m * n, ncclFloat, 0, comm, stream);
  cudaStreamSynchronize(stream);

  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaEventRecord(done, stream);
  cudaEventSynchronize(done);
  cudaMemcpy(host.data(), C, 16 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("C[0] = %f\n", host[0]);

  ncclCommDestroy(comm);
  cublasDestroy(handle);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaEventDestroy(done);
  cudaStreamDestroy(stream);
  return 0;
}
