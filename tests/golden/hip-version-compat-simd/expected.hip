// Packed 8-bit image arithmetic with CUDA's SIMD-in-word intrinsics: HIP has none of them, so the
// output includes Ferry's compat header, written beside it as ferry/compat/simd.h.
#include <hip/hip_runtime.h>
#include "ferry/compat/simd.h"

__global__ void blend(const unsigned* a, const unsigned* b, unsigned* out, unsigned* sad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned brighter = __vmaxu4(a[i], b[i]);
  unsigned mean = __vavgu4(a[i], b[i]);
  unsigned clipped = __vaddus4(brighter, 0x10101010u);
  out[i] = __vcmpgtu4(clipped, mean) & clipped;
  atomicAdd(sad, __vsadu4(a[i], b[i]));
}

int main() {
  unsigned *a, *b, *out, *sad;
  hipMalloc(&a, 1024 * sizeof(unsigned));
  hipMalloc(&b, 1024 * sizeof(unsigned));
  hipMalloc(&out, 1024 * sizeof(unsigned));
  hipMalloc(&sad, sizeof(unsigned));
  blend<<<4, 256>>>(a, b, out, sad, 1024);
  hipDeviceSynchronize();
  return 0;
}
