// Dissemination barrier: in round k every rank signals r + 2^k and waits for r - 2^k; after
// ceil(log2 P) rounds every rank has heard, transitively, from every other.
#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

void barrier_dissemination(Context& ctx, const Call&) {
  const int P = ctx.size;
  char out = 0, in = 0;
  for (int dist = 1; dist < P; dist <<= 1)
    sendrecv(ctx, (ctx.rank + dist) % P, &out, 1, (ctx.rank - dist + P) % P, &in, 1);
}

}  // namespace ferry::comm::detail
