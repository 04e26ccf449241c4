// CUDA's integer min()/max() overloads: unsigned and 64-bit arguments, and umin/ullmax. HIP 5.2
// has min(int, int), min(float, float) and min(double, double) only, so the unsigned calls below
// are ambiguous there (blockDim.x is an object that converts to unsigned); the output includes
// Ferry's compat header ferry/compat/minmax.h.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <cstdio>
#include "ferry/compat/minmax.h"

__global__ void clipped_copy(const float* in, float* out, unsigned rem, unsigned long long n) {
  for (unsigned k = threadIdx.x; k < min(rem, blockDim.x); k += blockDim.x) {
    unsigned long long last = ullmin(n - 1, static_cast<unsigned long long>(k));
    out[k] = in[last] + static_cast<float>(umax(k, 1u));
  }
}

struct Range {
  int lo, hi;
  int max() const { return hi; }  // a member: not the global max
};

int main() {
  float *in, *out;
  hipMalloc(&in, 256 * sizeof(float));
  hipMalloc(&out, 256 * sizeof(float));
  clipped_copy<<<1, 128>>>(in, out, 200u, 256ull);
  Range r{1, 9};
  std::printf("%d %zu\n", r.max(), max(static_cast<size_t>(3), sizeof(float)));
  hipFree(in);
  hipFree(out);
  return 0;
}
