// Code that looks like 32-lane arithmetic or like a resource problem but is not one: no
// FRY22xx/FRY32xx may fire here.
#include <hip/hip_runtime.h>

#define BITS_PER_WORD 32
constexpr int kTile = 32;

__device__ unsigned hash32(unsigned x) { return (x * 2654435761u) >> 5; }

__global__ void bitset(const int* keys, unsigned* words, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // a data index, not a lane
  if (i >= n) return;
  const unsigned h = hash32(keys[i]);
  atomicOr(&words[h / 32], 1u << (h & 31));
  atomicOr(&words[i / BITS_PER_WORD], 1u << (i % 32));
}

__global__ void transpose(const float* in, float* out, int width) {
  __shared__ float tile[kTile][kTile + 1];
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  out[x * width + y] = tile[threadIdx.x][threadIdx.y];
}

void host(int n, size_t bytes, float* out) {
  const int padded = (n + 31) / 32 * 32;
  const size_t words = bytes >> 5;
  const bool ok = n % 32 == 0;
  dim3 block(kTile, 8);
  transpose<<<dim3(n / kTile, n / kTile), block, 0>>>(out, out, padded + (int)words + ok);
}
