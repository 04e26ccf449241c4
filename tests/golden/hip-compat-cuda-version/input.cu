// Code that tests the CUDA release: CUDA 12.8's narrow floats when the toolkit has them, a
// workaround for toolkits before 11.2, and a path for every toolkit since 9.0. On HIP the tests
// compare FERRY_CUDART_VERSION (ferry/compat/cuda_version.h: CUDA 12.0 unless defined), not
// HIP_VERSION, whose numbering would make each of them hold. HIP has no FP4/FP6 header (FRY1001).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#if CUDART_VERSION >= 12080
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#define HAVE_NARROW_FLOATS 1
#else
#define HAVE_NARROW_FLOATS 0
#endif

#if CUDART_VERSION < 11020
#define SCALE 2.0f  // toolkits before 11.2
#else
#define SCALE 3.0f
#endif

#if defined(CUDART_VERSION) && CUDART_VERSION >= 9000
__global__ void twice(const __half* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = SCALE * __half2float(in[i]) + HAVE_NARROW_FLOATS;
}
#endif

int runtime_version() { return CUDART_VERSION; }
