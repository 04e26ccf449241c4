// __ffs of a ballot held in a variable: the wave64 fix widens k's 'm' to 64 bits; f's own parameter
// 'm' stays 32-bit, so __ffs(m) in f takes no cast, now or when the output is migrated again.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
__device__ int f(unsigned int m) { return __ffs(m); }
__global__ void k3(int *out, const int *v) {
  unsigned long long /* ferry-cuda: unsigned int */ m = __ballot(v[threadIdx.x] > 0);
  out[blockIdx.x] = f(m) + __popcll /* ferry-cuda: __popc */(m);
  int lane = threadIdx.x & (warpSize - 1) /* ferry-cuda: 31 */;
  unsigned long long /* ferry-cuda: unsigned int */ below = m & ((1ull /* ferry-cuda: 1u */ << lane) - 1);
  out[threadIdx.x] = __ffsll /* ferry-cuda: __ffs */(below);
}
