// CUB's detail headers: util_debug.cuh (CubDebug), util_macro.cuh (CUB_MAX, CUB_QUOTIENT_CEILING),
// util_math.cuh (DivideAndRoundUp), a thread-level header. Every CUB header becomes hipCUB's
// umbrella header (hipCUB's per-primitive headers are not self-contained), once; hipCUB has no
// util_macro: Ferry's compat header cub_macros.h defines CUB's arithmetic macros. Compiled against
// the real hipCUB headers (rocm.headers).
#include <hipcub/hipcub.hpp> /* ferry-cuda: <cub/util_debug.cuh> */
#include "ferry/compat/cub_macros.h"
/* ferry-cuda: #include <cub/util_math.cuh> */
/* ferry-cuda: #include <cub/thread/thread_load.cuh> */
/* ferry-cuda: #include <cub/block/block_reduce.cuh> */
#include <hip/hip_runtime.h>

template <int BLOCK>
__global__ void sum(const int* in, int* out, int n) {
  using Reduce = hipcub::BlockReduce<int, BLOCK>;
  __shared__ typename Reduce::TempStorage tmp;
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const int s = Reduce(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = CUB_MAX(s, 0) + CUB_MIN(s, 0);
}

hipError_t launch(const int* in, int* out, int n, hipStream_t stream) {
  const int blocks = CUB_QUOTIENT_CEILING(n, 256);
  const int also = static_cast<int>(hipcub::DivideAndRoundUp(n, 256));
  if (blocks != also) return hipErrorInvalidValue;
  sum<256><<<blocks, 256, 0, stream>>>(in, out, n);
  return HipcubDebug(hipGetLastError());
}
