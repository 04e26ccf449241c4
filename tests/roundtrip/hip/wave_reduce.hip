// A HIP program written for both wavefront widths: the build file's -DWAVE64 picks the 64-lane
// reduction, a device lambda and std::numeric_limits in device code need nvcc flags hipcc does not.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <limits>

template <typename Op>
__global__ void warp_max(const float* in, float* out, Op op) {
  float v = in[threadIdx.x];
#ifdef WAVE64
  for (int o = 32; o > 0; o >>= 1) v = op(v, __shfl_down(v, o, 64));
#else
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_down(v, o, 32));
#endif
  if (threadIdx.x == 0) *out = v < std::numeric_limits<float>::infinity() ? v : 0.0f;
}

int main() {
  float *in = nullptr, *out = nullptr;
  if (hipMalloc(&in, 64 * sizeof(float)) != hipSuccess || hipMalloc(&out, sizeof(float)) != hipSuccess) return 1;
  auto op = [] __device__(float a, float b) { return a > b ? a : b; };
  hipLaunchKernelGGL(warp_max<decltype(op)>, dim3(1), dim3(64), 0, 0, in, out, op);
  std::printf("%s\n", hipDeviceSynchronize() == hipSuccess ? "PASSED" : "FAILED");
  return 0;
}
