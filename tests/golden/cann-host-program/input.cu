// A complete host program of the shape users bring first: device count, allocation, copies and
// memset, streams, timed events, an NCCL all-reduce over the local devices, error strings.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <nccl.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status = (call);                                               \
    if (status != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA error %d: %s\n", status, cudaGetErrorString(status)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  int ndev = 0;
  CHECK(cudaGetDeviceCount(&ndev));
  if (ndev == 0) {
    fprintf(stderr, "no device\n");
    return 1;
  }
  printf("%d device(s)\n", ndev);

  const size_t n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  std::vector<float> host(n, 1.0f), back(n, 0.0f);

  std::vector<float *> dbuf(ndev, nullptr);
  std::vector<cudaStream_t> streams(ndev);
  for (int d = 0; d < ndev; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMalloc(&dbuf[d], bytes));
    CHECK(cudaMemset(dbuf[d], 0, bytes));
    CHECK(cudaStreamCreate(&streams[d]));
    CHECK(cudaMemcpyAsync(dbuf[d], host.data(), bytes, cudaMemcpyHostToDevice, streams[d]));
  }

  std::vector<ncclComm_t> comms(ndev);
  std::vector<int> devs(ndev);
  for (int d = 0; d < ndev; ++d) devs[d] = d;
  ncclResult_t nr = ncclCommInitAll(comms.data(), ndev, devs.data());
  if (nr != ncclSuccess) {
    fprintf(stderr, "NCCL error: %s\n", ncclGetErrorString(nr));
    return 1;
  }

  CHECK(cudaSetDevice(0));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, streams[0]));
  ncclGroupStart();
  for (int d = 0; d < ndev; ++d)
    ncclAllReduce(dbuf[d], dbuf[d], n, ncclFloat, ncclSum, comms[d], streams[d]);
  ncclGroupEnd();
  CHECK(cudaEventRecord(stop, streams[0]));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  CHECK(cudaMemcpy(back.data(), dbuf[0], bytes, cudaMemcpyDeviceToHost));
  printf("all-reduce of %zu floats over %d device(s): %.3f ms, back[0] = %.1f\n", n, ndev, ms, back[0]);

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  for (int d = 0; d < ndev; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamDestroy(streams[d]));
    CHECK(cudaFree(dbuf[d]));
    ncclCommDestroy(comms[d]);
  }
  return back[0] == static_cast<float>(ndev) ? 0 : 1;
}
