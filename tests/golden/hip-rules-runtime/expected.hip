// Host side of a vector-add benchmark: memory, streams, events, errors, device properties.
#include <cstdio>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call)                                                         \
  do {                                                                           \
    hipError_t err_ = (call);                                                   \
    if (err_ != hipSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(err_)); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int bench(int n) {
  hipDeviceProp_t prop;
  CUDA_CHECK(hipGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  float *a, *b, *c, *h;
  CUDA_CHECK(hipMalloc(&a, n * sizeof(float)));
  CUDA_CHECK(hipMalloc(&b, n * sizeof(float)));
  CUDA_CHECK(hipMalloc(&c, n * sizeof(float)));
  CUDA_CHECK(hipHostMalloc(&h, n * sizeof(float)));
  hipStream_t stream;
  CUDA_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  CUDA_CHECK(hipMemsetAsync(a, 0, n * sizeof(float), stream));
  CUDA_CHECK(hipMemcpyAsync(b, h, n * sizeof(float), hipMemcpyHostToDevice, stream));
  hipEventRecord(start, stream);
  add<<<(n + 255) / 256, 256, 0, stream>>>(a, b, c, n);
  CUDA_CHECK(hipGetLastError());
  hipEventRecord(stop, stream);
  CUDA_CHECK(hipEventSynchronize(stop));
  float ms = 0.f;
  hipEventElapsedTime(&ms, start, stop);
  CUDA_CHECK(hipMemcpy(h, c, n * sizeof(float), hipMemcpyDeviceToHost));
  printf("%.3f ms\n", ms);
  hipEventDestroy(start);
  hipEventDestroy(stop);
  hipStreamDestroy(stream);
  hipHostFree(h);
  hipFree(a);
  hipFree(b);
  hipFree(c);
  return 0;
}
