// Internal helpers shared by the algorithm files: block ranges, power-of-two folding, and the
// serialized sets of compressed blocks that lossy allgather phases forward without recompressing.
#pragma once

#include <cstring>
#include <vector>

#include "context.hpp"
#include "ferry/comm/collectives.hpp"

namespace ferry::comm::detail {

inline int pow2_floor(int p) {
  int v = 1;
  while (v * 2 <= p) v *= 2;
  return v;
}

// Every allreduce works in `recv`: copies `send` there unless the call is in place. False when
// that is all there is to do (one rank).
inline bool allreduce_start(const Context& ctx, const Call& c) {
  if (c.send != c.recv && c.count > 0) std::memmove(c.recv, c.send, c.count * dtype_size(c.dtype));
  return ctx.size > 1;
}

// Ranks fold to the largest power of two p2 <= P: the first 2*rem ranks pair up, the even one of
// each pair hands its data to the odd one and sits out. Returns the rank inside the power-of-two
// group, or -1 for ranks that sit out.
struct Fold {
  int p2, rem, newrank;
  explicit Fold(int rank, int size) : p2(pow2_floor(size)), rem(size - pow2_floor(size)) {
    newrank = rank < 2 * rem ? (rank % 2 ? rank / 2 : -1) : rank - rem;
  }
  int real(int nr) const { return nr < rem ? nr * 2 + 1 : nr + rem; }
  bool sits_out(int rank) const { return rank < 2 * rem && rank % 2 == 0; }
};

// Elements [begin, end) of blocks [b0, b1) of a count split into nblocks.
struct Range {
  std::size_t begin, end;
  std::size_t size() const { return end - begin; }
};
inline Range blocks_range(std::size_t count, int nblocks, int b0, int b1) {
  std::size_t begin = block_of(count, nblocks, b0).offset;
  std::size_t end = b1 >= nblocks ? count : block_of(count, nblocks, b1).offset;
  return {begin, end};
}

// One step of recursive halving at `mask` over blocks [lo, lo + nblk) of p2: the peer, whether
// this rank keeps the upper half, the elements it keeps (and reduces into) and those it gives.
struct Halving {
  int peer;
  bool upper;
  Range keep, give;
};
inline Halving halving_step(std::size_t count, const Fold& f, int mask, int lo, int nblk) {
  const int half = nblk / 2;
  const bool upper = (f.newrank & mask) != 0;
  const Range low = blocks_range(count, f.p2, lo, lo + half), high = blocks_range(count, f.p2, lo + half, lo + nblk);
  return {f.real(f.newrank ^ mask), upper, upper ? high : low, upper ? low : high};
}

// A set of compressed blocks: [u64 size per block][bytes...].
inline void serialize_blocks(const std::vector<std::vector<std::byte>>& pk, int b0, int b1,
                             std::vector<std::byte>& out) {
  std::size_t total = 8 * static_cast<std::size_t>(b1 - b0);
  for (int b = b0; b < b1; ++b) total += pk[b].size();
  out.resize(total);
  std::byte* p = out.data();
  for (int b = b0; b < b1; ++b) {
    std::uint64_t s = pk[b].size();
    std::memcpy(p, &s, 8);
    p += 8;
  }
  for (int b = b0; b < b1; ++b) {
    if (!pk[b].empty()) std::memcpy(p, pk[b].data(), pk[b].size());
    p += pk[b].size();
  }
}

inline void deserialize_blocks(const std::byte* data, std::size_t bytes, int b0, int b1,
                               std::vector<std::vector<std::byte>>& pk) {
  std::size_t header = 8 * static_cast<std::size_t>(b1 - b0);
  if (bytes < header) throw CommError(CommError::Kind::mismatch, "ferry-comm: truncated block set");
  const std::byte* p = data + header;
  std::size_t left = bytes - header;
  for (int b = b0; b < b1; ++b) {
    std::uint64_t s;
    std::memcpy(&s, data + 8 * (b - b0), 8);
    if (s > left) throw CommError(CommError::Kind::mismatch, "ferry-comm: corrupt block set");
    pk[b].assign(p, p + s);
    p += s;
    left -= s;
  }
}

inline void decompress_into(Codec& codec, std::span<const std::byte> bytes, float* out, std::size_t n) {
  codec.decompress(bytes, {out, n});
}

}  // namespace ferry::comm::detail
