// Resource limits of gfx906 (FRY3201-FRY3204), and sizes right at the limits that must not fire.
#include <hip/hip_runtime.h>

#define TILE 128
constexpr int kExtra = 1024;

__global__ void big_tiles(float* out) {            // FRY3201: 64 KiB + 4 KiB
  __shared__ float a[TILE * TILE];
  __shared__ float b[kExtra];
  a[threadIdx.x] = b[threadIdx.x] = 1.f;
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

__global__ void exact_tiles(float* out) {          // exactly 64 KiB: fine
  __shared__ double a[64][128];
  a[0][threadIdx.x] = 1.0;
  out[threadIdx.x] = (float)a[0][threadIdx.x];
}

__global__ void __launch_bounds__(2048) too_wide(float* out) { out[threadIdx.x] = 0.f; }
__global__ void __launch_bounds__(256) fine_width(float* out) { out[threadIdx.x] = 0.f; }

__global__ void dyn(float* out) {
  extern __shared__ float cache[];
  cache[threadIdx.x] = 1.f;
  out[threadIdx.x] = cache[threadIdx.x];
}

void launch(float* out, int n) {
  too_wide<<<n, 2048>>>(out);                      // FRY3203
  dim3 block(64, 32);                              // FRY3203 (2048 threads)
  fine_width<<<n, block>>>(out);
  dim3 ok(32, 32);
  fine_width<<<n, ok>>>(out);
  dyn<<<n, 256, 96 * 1024>>>(out);                 // FRY3204
  dyn<<<n, 256, 48 * 1024>>>(out);
  hipFuncSetAttribute((reinterpret_cast<const void*>(dyn)) /* ferry-cuda: dyn */, hipFuncAttributeMaxDynamicSharedMemorySize, 128 * 1024);  // FRY3204
  big_tiles<<<n, 256>>>(out);
  exact_tiles<<<n, 256>>>(out);
}
