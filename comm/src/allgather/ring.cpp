// Ring allgather: P-1 steps, each forwarding to the right the block received from the left.
#include <cstring>

#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

void allgather_ring(Context& ctx, const Call& c) {
  const int P = ctx.size, r = ctx.rank;
  const std::size_t es = dtype_size(c.dtype);
  char* out = byte_ptr(c.recv);
  Block own = block_of(c.count, P, r);
  if (own.length > 0 && byte_ptr(c.send) != out + own.offset * es)
    std::memmove(out + own.offset * es, c.send, own.length * es);
  auto mod = [P](int a) { return ((a % P) + P) % P; };
  for (int s = 0; s < P - 1; ++s) {
    Block sb = block_of(c.count, P, mod(r - s)), rb = block_of(c.count, P, mod(r - s - 1));
    sendrecv(ctx, mod(r + 1), out + sb.offset * es, sb.length * es, mod(r - 1), out + rb.offset * es, rb.length * es);
  }
}

}  // namespace ferry::comm::detail
