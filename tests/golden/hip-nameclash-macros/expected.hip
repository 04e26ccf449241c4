// Macros and helpers whose names HIP's headers also define: the user's own names (DEPRECATED,
// MASK1, __HOST_DEVICE__) are renamed in the whole project; HIP's API names never are: a
// HIP_DYNAMIC_SHARED macro is HIP's own, a wrapper with the signature of a HIP call is kept
// for CUDA builds only (FRY4103) and HIP's function serves the calls.
#include <cstdio>
#include <hip/hip_runtime.h>

#define DEPRECATED_user(msg) __attribute__((deprecated(msg)))
#define MASK1_user 0x0000ffffu
#define __HOST_DEVICE___user __host__ __device__ __forceinline__
#define HIP_DYNAMIC_SHARED(T, name) extern __shared__ T name[]

__HOST_DEVICE___user unsigned low_half(unsigned v) { return v & MASK1_user; }

DEPRECATED_user("use low_half") __HOST_DEVICE___user unsigned low16(unsigned v) { return low_half(v); }

// A wrapper a CUDA project named after the HIP call it was meant to become.
#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define this [FRY4103]
static void hipDeviceSynchronize() {
  hipError_t err = hipDeviceSynchronize();
  if (err != hipSuccess) fprintf(stderr, "sync failed: %s\n", hipGetErrorString(err));
}
#endif

__global__ void pack(const unsigned* in, unsigned* out, int n) {
  HIP_DYNAMIC_SHARED /* ferry-cuda: HIP_DYNAMIC_SHARED */(unsigned, tile);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[threadIdx.x] = low_half(in[i]);
  __syncthreads();
  if (i < n) out[i] = tile[threadIdx.x];
}

void run(const unsigned* d_in, unsigned* d_out, int n) {
  pack<<<(n + 127) / 128, 128, 128 * sizeof(unsigned)>>>(d_in, d_out, n);
  hipDeviceSynchronize /* ferry-cuda: hipDeviceSynchronize */();
}
