#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "ferry/compat/ptx.h"

// A half's bits to float: PTX on the device, where the arch allows, under a directive.
__device__ float bits_to_float(unsigned short bits) {
  float f;
#if (defined __HIP_DEVICE_COMPILE__) && (__HIP_DEVICE_COMPILE__ >= 530)
  (f = __half2float(__ushort_as_half(bits))) /* ferry-cuda: asm("{cvt.f32.f16 %0, %1;}\n" : "=f"(f) : "h"(bits)) */;
#else
  f = 0.0f;
#endif
  return f;
}
