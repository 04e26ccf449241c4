// cooperative_groups::reduce over a user type with a user functor: the (value, index) pair of an
// arg-max. HIP has no cg::reduce; Ferry's compat header coop_reduce.h provides it, and moves a
// value HIP's tile shuffle does not take (a struct) one 32-bit word at a time.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_cooperative_groups.h>
#include "ferry/compat/coop_reduce.h"
/* ferry-cuda: #include <cuda_runtime.h> */

namespace cg = cooperative_groups;

struct ArgMax {
  float value;
  int index;
};

struct TakeLarger {
  __device__ ArgMax operator()(const ArgMax& a, const ArgMax& b) const { return b.value > a.value ? b : a; }
};

__global__ void argmax(const float* in, ArgMax* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const ArgMax mine{in[i], i};
  const ArgMax best = cg::reduce(tile, mine, TakeLarger());
  const float total = cg::reduce(tile, in[i], cg::plus<float>());
  if (tile.thread_rank() == 0) out[i / 32] = ArgMax{best.value + 0.0f * total, best.index};
}
