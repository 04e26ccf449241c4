// Streams and events: explicit streams, event timing, error strings, device count.
#include <cstdio>
#include <cuda_runtime.h>

static void check(cudaError_t e) {
  if (e != cudaSuccess) printf("error: %s\n", cudaGetErrorString(e));
}

void copy_timed(float *dst, const float *src, size_t bytes) {
  cudaStream_t stream;
  cudaEvent_t start, stop;
  check(cudaStreamCreate(&stream));
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice);
  cudaMemsetAsync(dst, 0, bytes, 0);
  cudaEventRecord(stop, 0);
  cudaStreamWaitEvent(stream, stop, 0);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("copy took %f ms\n", ms);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
}

int count_devices() {
  int n = 0;
  cudaGetDeviceCount(&n);
  cudaDeviceSynchronize();
  return n;
}
