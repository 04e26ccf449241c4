// Pairwise reduce-scatter: in step k (1..P-1) rank r sends its contribution to block r+k straight
// to rank r+k and receives rank r-k's contribution to block r. No forwarding: each byte crosses
// the network once, good on switched fabrics with full bisection bandwidth.
#include <cstring>
#include <vector>

#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

void reduce_scatter_pairwise(Context& ctx, const Call& c) {
  const int P = ctx.size, r = ctx.rank;
  const std::size_t es = dtype_size(c.dtype);
  Block own = block_of(c.count, P, r);
  if (own.length > 0) std::memmove(c.recv, byte_ptr(c.send) + own.offset * es, own.length * es);
  std::vector<char> tmp(own.length * es);
  for (int k = 1; k < P; ++k) {
    int dst = (r + k) % P, src = (r - k + P) % P;
    Block sb = block_of(c.count, P, dst);
    sendrecv(ctx, dst, byte_ptr(c.send) + sb.offset * es, sb.length * es, src, tmp.data(), own.length * es);
    reduce_into(c.recv, tmp.data(), own.length, c.dtype, c.op);
  }
}

}  // namespace ferry::comm::detail
