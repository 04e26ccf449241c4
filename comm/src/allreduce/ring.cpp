// Ring allreduce: a ring reduce-scatter (after P-1 steps rank r owns block r) followed by a ring
// allgather. Lossy path: each step compresses the partial sum it forwards; the owner compresses
// its final block once and the allgather forwards those bytes untouched, the owner itself keeping
// decompress(compress(block)) so every rank ends with the same bits.
#include <cstring>
#include <vector>

#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

namespace {

int mod(int a, int p) { return ((a % p) + p) % p; }

void ring_raw(Context& ctx, const Call& c) {
  const int P = ctx.size, r = ctx.rank;
  const std::size_t es = dtype_size(c.dtype);
  char* acc = byte_ptr(c.recv);
  const int right = mod(r + 1, P), left = mod(r - 1, P);
  std::vector<char> tmp(block_of(c.count, P, 0).length * es);
  for (int s = 0; s < P - 1; ++s) {
    Block sb = block_of(c.count, P, mod(r - 1 - s, P)), rb = block_of(c.count, P, mod(r - 2 - s, P));
    sendrecv(ctx, right, acc + sb.offset * es, sb.length * es, left, tmp.data(), rb.length * es);
    reduce_into(acc + rb.offset * es, tmp.data(), rb.length, c.dtype, c.op);
  }
  for (int s = 0; s < P - 1; ++s) {
    Block sb = block_of(c.count, P, mod(r - s, P)), rb = block_of(c.count, P, mod(r - s - 1, P));
    sendrecv(ctx, right, acc + sb.offset * es, sb.length * es, left, acc + rb.offset * es, rb.length * es);
  }
}

void ring_lossy(Context& ctx, const Call& c) {
  const int P = ctx.size, r = ctx.rank;
  Codec& codec = *c.codec;
  float* acc = static_cast<float*>(c.recv);
  const int right = mod(r + 1, P), left = mod(r - 1, P);
  const std::size_t maxblock = block_of(c.count, P, 0).length;
  std::vector<std::byte> out, in(codec.max_compressed_bytes(maxblock));
  std::vector<float> tmp(maxblock);
  for (int s = 0; s < P - 1; ++s) {
    Block sb = block_of(c.count, P, mod(r - 1 - s, P)), rb = block_of(c.count, P, mod(r - 2 - s, P));
    auto packed = pack(codec, {acc + sb.offset, sb.length}, out);
    std::size_t got = sendrecv(ctx, right, packed.data(), packed.size(), left, in.data(), in.size());
    codec.decompress({in.data(), got}, {tmp.data(), rb.length});
    for (std::size_t i = 0; i < rb.length; ++i) acc[rb.offset + i] += tmp[i];
  }
  Block own = block_of(c.count, P, r);
  auto packed = pack(codec, {acc + own.offset, own.length}, out);
  std::vector<std::byte> cur(packed.begin(), packed.end());
  codec.decompress(cur, {acc + own.offset, own.length});
  for (int s = 0; s < P - 1; ++s) {
    Block rb = block_of(c.count, P, mod(r - s - 1, P));
    std::size_t got = sendrecv(ctx, right, cur.data(), cur.size(), left, in.data(), in.size());
    codec.decompress({in.data(), got}, {acc + rb.offset, rb.length});
    cur.assign(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(got));
  }
}

}  // namespace

void allreduce_ring(Context& ctx, const Call& c) {
  if (!allreduce_start(ctx, c)) return;
  c.codec ? ring_lossy(ctx, c) : ring_raw(ctx, c);
}

}  // namespace ferry::comm::detail
