// sm_70/sm_80 warp intrinsics without a HIP 5.2 counterpart: left as they are (FRY1101/FRY1102).
#include <hip/hip_runtime.h>

__global__ void histogram_keys(const int* keys, int n, int* hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int key = keys[i];
  unsigned peers = __match_any_sync(__activemask(), key);
  int leader = __ffs(peers) - 1;
  int lane = threadIdx.x % 32;
  if (lane == leader) atomicAdd(&hist[key], __popc(peers));
  int pred;
  unsigned same = __match_all_sync(0xffffffff, key, &pred);
  unsigned total = __reduce_add_sync(0xffffffff, (unsigned)key);
  unsigned hi = __reduce_max_sync(0xffffffff, (unsigned)key);
  if (lane == 0) hist[n] = total + hi + same + pred;
}
