// Macros and helpers whose names HIP's headers also define (DEPRECATED, MASK1, __HOST_DEVICE__,
// HIP_DYNAMIC_SHARED, hipDeviceSynchronize-like wrappers): renamed in the whole project.
#include <cstdio>
#include <hip/hip_runtime.h>

#define DEPRECATED_user(msg) __attribute__((deprecated(msg)))
#define MASK1_user 0x0000ffffu
#define __HOST_DEVICE___user __host__ __device__ __forceinline__
#define HIP_DYNAMIC_SHARED_user(T, name) extern __shared__ T name[]

__HOST_DEVICE___user unsigned low_half(unsigned v) { return v & MASK1_user; }

DEPRECATED_user("use low_half") __HOST_DEVICE___user unsigned low16(unsigned v) { return low_half(v); }

// A wrapper a CUDA project named after the HIP call it was meant to become.
static void hipDeviceSynchronize_user() {
  hipError_t err = hipDeviceSynchronize();
  if (err != hipSuccess) fprintf(stderr, "sync failed: %s\n", hipGetErrorString(err));
}

__global__ void pack(const unsigned* in, unsigned* out, int n) {
  HIP_DYNAMIC_SHARED_user(unsigned, tile);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[threadIdx.x] = low_half(in[i]);
  __syncthreads();
  if (i < n) out[i] = tile[threadIdx.x];
}

void run(const unsigned* d_in, unsigned* d_out, int n) {
  pack<<<(n + 127) / 128, 128, 128 * sizeof(unsigned)>>>(d_in, d_out, n);
  hipDeviceSynchronize_user();
}
