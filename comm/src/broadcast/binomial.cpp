// Binomial-tree broadcast: in virtual ranks (root = 0) a rank receives from vr - lowbit(vr) and
// sends to vr + 2^k for every 2^k below its lowest set bit.
#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

void broadcast_binomial(Context& ctx, const Call& c) {
  const int P = ctx.size;
  const int vr = (ctx.rank - c.root + P) % P;
  const std::size_t bytes = c.count * dtype_size(c.dtype);
  int mask = 1;
  while (mask < P) {
    if (vr & mask) {
      recv_bytes(ctx, (vr - mask + c.root) % P, c.recv, bytes);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < P) send_bytes(ctx, (vr + mask + c.root) % P, c.recv, bytes);
}

}  // namespace ferry::comm::detail
