// Bruck allgather, which is recursive doubling for any P: ceil(log2 P) steps; in step k rank r
// holds blocks r, r+1, ... (rotated, contiguous in a scratch buffer), sends the first
// min(2^k, P - 2^k) of them to r - 2^k and appends those of r + 2^k. A final copy un-rotates.
#include <cstring>
#include <vector>

#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

void allgather_recursive_doubling(Context& ctx, const Call& c) {
  const int P = ctx.size, r = ctx.rank;
  const std::size_t es = dtype_size(c.dtype);
  auto len = [&](int j) { return block_of(c.count, P, (r + j) % P).length * es; };  // j-th rotated block
  std::vector<char> rot(c.count * es);
  std::size_t have_bytes = len(0);
  if (have_bytes > 0) std::memcpy(rot.data(), c.send, have_bytes);
  int have = 1;
  for (int dist = 1; dist < P; dist <<= 1) {
    int cnt = dist < P - have ? dist : P - have;
    std::size_t sbytes = 0, rbytes = 0;
    for (int j = 0; j < cnt; ++j) sbytes += len(j);
    // Rank r+dist sends its first cnt rotated blocks: blocks r+dist .. r+dist+cnt-1 = my have..have+cnt-1.
    for (int j = 0; j < cnt; ++j) rbytes += len(have + j);
    sendrecv(ctx, (r - dist + P) % P, rot.data(), sbytes, (r + dist) % P, rot.data() + have_bytes, rbytes);
    have += cnt;
    have_bytes += rbytes;
  }
  char* out = byte_ptr(c.recv);
  std::size_t pos = 0;
  for (int j = 0; j < P; ++j) {
    Block b = block_of(c.count, P, (r + j) % P);
    if (b.length > 0) std::memcpy(out + b.offset * es, rot.data() + pos, b.length * es);
    pos += b.length * es;
  }
}

}  // namespace ferry::comm::detail
