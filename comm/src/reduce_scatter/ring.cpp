// Ring reduce-scatter: at step s rank r forwards the partial sum of block r-1-s to its right
// neighbour and adds its own contribution to block r-2-s from the left; after P-1 steps block r
// holds the sum of every rank's block r.
#include <cstring>
#include <vector>

#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

void reduce_scatter_ring(Context& ctx, const Call& c) {
  const int P = ctx.size, r = ctx.rank;
  const std::size_t es = dtype_size(c.dtype);
  Block own = block_of(c.count, P, r);
  if (P == 1) {
    if (c.count > 0) std::memmove(c.recv, c.send, c.count * es);
    return;
  }
  auto mod = [P](int a) { return ((a % P) + P) % P; };
  std::vector<char> acc(byte_ptr(c.send), byte_ptr(c.send) + c.count * es);
  std::vector<char> tmp(block_of(c.count, P, 0).length * es);
  for (int s = 0; s < P - 1; ++s) {
    Block sb = block_of(c.count, P, mod(r - 1 - s)), rb = block_of(c.count, P, mod(r - 2 - s));
    sendrecv(ctx, mod(r + 1), acc.data() + sb.offset * es, sb.length * es, mod(r - 1), tmp.data(), rb.length * es);
    reduce_into(acc.data() + rb.offset * es, tmp.data(), rb.length, c.dtype, c.op);
  }
  if (own.length > 0) std::memcpy(c.recv, acc.data() + own.offset * es, own.length * es);
}

}  // namespace ferry::comm::detail
