// Dynamic parallelism: a kernel that launches itself, device code that calls the runtime API.
// HIP has no device runtime; each launch and call in device code is reported (FRY1402), host
// code that does the same is not.
#include <cstdio>
#include <cuda_runtime.h>

struct Segment {
  int* data;
  int n;
};

__device__ int* scratch_for(int n) {
  int* p = nullptr;
  cudaMalloc((void**)&p, n * sizeof(int));
  return p;
}

__global__ void halve(int* data, int n, int depth) {
  if (n <= 1 || depth == 0) return;
  if (threadIdx.x == 0) {
    cudaStream_t left, right;
    cudaStreamCreateWithFlags(&left, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&right, cudaStreamNonBlocking);
    halve<<<1, 1, 0, left>>>(data, n / 2, depth - 1);
    halve<<<1, 1, 0, right>>>(data + n / 2, n - n / 2, depth - 1);
    if (cudaGetLastError() != cudaSuccess) printf("launch failed\n");
    cudaStreamDestroy(left);
    cudaStreamDestroy(right);
  }
}

template <int Block>
__global__ void fill(Segment s) {
  int i = blockIdx.x * Block + threadIdx.x;
  if (i < s.n) s.data[i] = i;
}

template <int Block>
__global__ void parent(Segment s) {
  fill<Block>
      <<<(s.n + Block - 1) / Block, Block>>>(s);
  cudaDeviceSynchronize();
}

// Compiled for both sides: not reported (the launch may be the host path).
__host__ __device__ inline int blocks_for(int n) { return (n + 127) / 128; }

int main() {
  int* d = nullptr;
  cudaMalloc((void**)&d, 1024 * sizeof(int));
  halve<<<1, 1>>>(d, 1024, 4);
  parent<128><<<1, 1>>>(Segment{d, 1024});
  fill<128><<<blocks_for(1024), 128>>>(Segment{d, 1024});
  cudaError_t err = cudaGetLastError();
  cudaDeviceSynchronize();
  cudaFree(d);
  return err == cudaSuccess ? 0 : 1;
}
