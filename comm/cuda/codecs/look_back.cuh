// Internal: decoupled look-back across the tiles of one kernel (the eb fast kernels' way of finding
// where each tile's variable-size output starts, in the same pass that produces it).
//
// state[tile] holds a 2-bit status and a 62-bit value: 0 = nothing yet, lb_aggregate = the tile's
// own size, lb_inclusive = the inclusive prefix (all tiles up to and including it). The caller
// zeroes the state before the launch.
#pragma once

#include "common.cuh"

namespace ferry::comm::cuda::detail {

// Decoupled look-back: tile `tile` publishes its aggregate, walks back over its predecessors 32
// at a time (warp-wide) until one has published an inclusive prefix, and publishes its own.
// Returns the tile's exclusive prefix to every lane. Tiles take their index from an atomic
// counter in launch order, so every predecessor is running or done: the spin always ends.
inline constexpr unsigned long long lb_aggregate = 1ull << 62;    // status: the tile's own size
inline constexpr unsigned long long lb_inclusive = 2ull << 62;    // status: the inclusive prefix
inline constexpr unsigned long long lb_value = (1ull << 62) - 1;  // the value bits

__device__ __forceinline__ unsigned long long warp_sum_u64(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(full_mask, v, o);
  return v;
}

// Publishing the aggregate as soon as it is known (before the tile's other work) shortens every
// successor's walk; look_back_walk then finishes the job.
__device__ __forceinline__ void look_back_publish(unsigned long long* state, unsigned tile, unsigned long long agg) {
  atomicExch(&state[tile], (tile == 0 ? lb_inclusive : lb_aggregate) | agg);
}
static __device__ unsigned long long look_back_walk(unsigned long long* state, unsigned tile, unsigned long long agg,
                                                    int lane) {
  if (tile == 0) return 0;
  unsigned long long excl = 0;
  long long j = static_cast<long long>(tile) - 1;
  for (;;) {
    const long long idx = j - lane;
    unsigned long long s;
    do {
      s = idx >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&state[idx])
                   : static_cast<unsigned long long>(lb_inclusive);  // a value: host constants are not lvalues here
    } while (__any_sync(full_mask, (s >> 62) == 0));
    const unsigned inc = __ballot_sync(full_mask, (s >> 62) == 2);
    unsigned long long v = s & lb_value;
    if (inc) {
      if (lane > __ffs(inc) - 1) v = 0;
      excl += warp_sum_u64(v);
      break;
    }
    excl += warp_sum_u64(v);
    j -= 32;
  }
  if (lane == 0) atomicExch(&state[tile], lb_inclusive | (excl + agg));
  return excl;
}
static __device__ unsigned long long look_back(unsigned long long* state, unsigned tile, unsigned long long agg,
                                               int lane) {
  if (lane == 0) look_back_publish(state, tile, agg);
  return look_back_walk(state, tile, agg, lane);
}

}  // namespace ferry::comm::cuda::detail
