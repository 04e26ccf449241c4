#include <cuda_fp16.h>

// A half's bits to float: PTX on the device, where the arch allows, under a directive.
__device__ float bits_to_float(unsigned short bits) {
  float f;
#if (defined __CUDA_ARCH__) && (__CUDA_ARCH__ >= 530)
  asm("{cvt.f32.f16 %0, %1;}\n" : "=f"(f) : "h"(bits));
#else
  f = 0.0f;
#endif
  return f;
}
