// Pinned host memory, memset variants and pitched copies.
#include <cuda_runtime.h>

void stage(size_t n, size_t width, size_t height, cudaStream_t stream) {
  float *pinned = nullptr, *mapped = nullptr, *d = nullptr, *d2 = nullptr;
  unsigned char *bytes = nullptr;
  cudaMallocHost(&pinned, n * sizeof(float));
  cudaMallocHost((void **)&bytes, n);
  cudaHostAlloc(&mapped, n * sizeof(float), cudaHostAllocDefault);
  cudaHostAlloc((void **)&mapped, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable);
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc((void **)&d2, width * height);

  cudaMemset(d, 0, n * sizeof(float));
  cudaMemsetAsync(d, 0xff, n * sizeof(float), stream);
  cudaMemsetAsync(d, 1, 64, 0);
  cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  cudaMemcpy2D(d2, width, bytes, width, width, height, cudaMemcpyHostToDevice);
  cudaMemcpy2DAsync(bytes, width, d2, width, width, height, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);

  cudaFree(d2);
  cudaFree(d);
  cudaFreeHost(mapped);
  cudaFreeHost(bytes);
  cudaFreeHost(pinned);
}
