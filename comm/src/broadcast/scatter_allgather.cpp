// Scatter + allgather broadcast (van de Geijn): a binomial scatter leaves block vr on virtual
// rank vr, then a ring allgather completes the vector. Moves ~2N bytes per rank instead of
// N log2 P, so it wins for large messages.
#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

void broadcast_scatter_allgather(Context& ctx, const Call& c) {
  const int P = ctx.size;
  const int vr = (ctx.rank - c.root + P) % P;
  const std::size_t es = dtype_size(c.dtype);
  char* buf = byte_ptr(c.recv);
  auto real = [&](int v) { return (v + c.root) % P; };
  // Binomial scatter of virtual blocks: the subtree of vr covers blocks [vr, vr + subtree size).
  int mask = 1;
  while (mask < P) {
    if (vr & mask) {
      Range rr = blocks_range(c.count, P, vr, vr + mask < P ? vr + mask : P);
      recv_bytes(ctx, real(vr - mask), buf + rr.begin * es, rr.size() * es);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (vr + mask < P) {
      int hi = vr + 2 * mask < P ? vr + 2 * mask : P;
      Range sr = blocks_range(c.count, P, vr + mask, hi);
      send_bytes(ctx, real(vr + mask), buf + sr.begin * es, sr.size() * es);
    }
  }
  // Ring allgather over virtual ranks.
  for (int s = 0; s < P - 1; ++s) {
    Block sb = block_of(c.count, P, (vr - s + P) % P), rb = block_of(c.count, P, (vr - s - 1 + P) % P);
    sendrecv(ctx, real((vr + 1) % P), buf + sb.offset * es, sb.length * es, real((vr - 1 + P) % P),
             buf + rb.offset * es, rb.length * es);
  }
}

}  // namespace ferry::comm::detail
