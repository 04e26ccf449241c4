// A project that #defines max itself (a host helper macro) still gets ferry/compat/minmax.h for
// its unsigned min() call: one such macro no longer keeps the header from the tree. The header
// sets min/max macros aside while it defines its templates, so it is safe before or after the
// project's own definition, and the file's max() calls keep expanding to the project's macro.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#define max(a, b) ((a) > (b) ? (a) : (b))  // before the includes: the compat header comes after it
#include <cstdio>
#include "ferry/compat/minmax.h"

__global__ void clipped_relu(const float* in, float* out, unsigned rem) {
  for (unsigned k = threadIdx.x; k < min(rem, blockDim.x); k += blockDim.x) out[k] = max(in[k], 0.0f);
}

int main() {
  float *in, *out;
  hipMalloc(&in, 256 * sizeof(float));
  hipMalloc(&out, 256 * sizeof(float));
  clipped_relu<<<1, 128>>>(in, out, 200u);
  std::printf("%d\n", max(3, 4));
  hipFree(in);
  hipFree(out);
  return 0;
}
