// Host side of a vector-add benchmark: memory, streams, events, errors, device properties.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                         \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int bench(int n) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  float *a, *b, *c, *h;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&c, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  CUDA_CHECK(cudaMemsetAsync(a, 0, n * sizeof(float), stream));
  CUDA_CHECK(cudaMemcpyAsync(b, h, n * sizeof(float), cudaMemcpyHostToDevice, stream));
  cudaEventRecord(start, stream);
  add<<<(n + 255) / 256, 256, 0, stream>>>(a, b, c, n);
  CUDA_CHECK(cudaGetLastError());
  cudaEventRecord(stop, stream);
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.f;
  cudaEventElapsedTime(&ms, start, stop);
  CUDA_CHECK(cudaMemcpy(h, c, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("%.3f ms\n", ms);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFreeHost(h);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
