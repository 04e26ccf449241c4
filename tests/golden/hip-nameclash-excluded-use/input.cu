// A clash rename (FRY4101) is all or nothing. `DEPRECATED` is also a macro of HIP's headers, so
// Ferry would rename the user's macro and its uses to DEPRECATED_user; but one use is on a
// `ferry: ignore` line, which must stay as written, and would then expand HIP's macro instead.
// Nothing is renamed and the definition gets FRY4106 (hip-nameclash-macros has the renamed case).
#include <cuda_runtime.h>

#define DEPRECATED(msg) __attribute__((deprecated(msg)))

DEPRECATED("use scale_v2") __global__ void scale(float* x, float a, int n);
DEPRECATED("use shift_v2") void shift(float* x, int n);  // ferry: ignore

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 256 * sizeof(float));
  cudaFree(d);
  return 0;
}
