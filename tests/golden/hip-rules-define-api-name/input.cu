// A project's portability header maps a few CUDA names itself, for another vendor's toolchain.
// Such a definition keeps its name (FRY1313): renamed, it would redefine HIP's own name
// (`#define hipStream_t ...`, `#define __HIP_DEVICE_COMPILE__ 700`, which makes HIP's headers drop
// their host declarations). Its uses elsewhere become HIP's names as usual.
#include <cuda_runtime.h>

#if defined(OTHER_VENDOR)
#include <other_runtime.h>
#define cudaStream_t otherStream_t
#define cudaStreamCreate otherStreamCreate
#define __CUDA_ARCH__ 700
#undef cudaEventDisableTiming
#endif

__global__ void fill(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 1.0f;
}

int launch(float* x, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  fill<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  return cudaStreamDestroy(s) == cudaSuccess ? 0 : 1;
}
