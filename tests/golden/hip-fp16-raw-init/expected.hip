// fp16 constants given as bits: a __half_raw / __half2_raw brace list. CUDA's raw types are
// `{ unsigned short x; }` (`{ x, y }`); HIP's are unions whose first member is the _Float16, so
// the same list would initialise the floating value and 0xFBFF "cannot be narrowed to _Float16".
// Ferry names the members: `{.x = 0xFBFF}`.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
#include "ferry/compat/fp16.h"

constexpr __half_raw kLowest = {.x = 0xFBFF} /* ferry-cuda: {0xFBFF} */;  // -65504, the lowest finite half

__device__ __half clamp_low(__half v) {
  const __half_raw inf{.x = 0x7C00} /* ferry-cuda: {0x7C00} */;
  const __half lowest = kLowest;
  return __hisinf(v) ? __half(inf) : __hmax(v, lowest);
}

__device__ __half2 ones() {
  __half2_raw r = {.x = 0x3C00, .y = 0xBC00} /* ferry-cuda: {0x3C00, 0xBC00} */;  // (1, -1)
  return __half2(r);
}

__device__ __half neg_max() { return __half(__half_raw{.x = 0xFBFF} /* ferry-cuda: {0xFBFF} */); }
