// Rabenseifner allreduce: fold to a power of two p2, reduce-scatter by recursive halving (each
// rank ends owning block newrank of p2), allgather by recursive doubling, unfold.
// Lossy path: halving steps send compressed halves of the partial sums; the owner compresses its
// final block once; the allgather forwards sets of those compressed blocks, and every rank
// (the owner included) decompresses the same bytes, so all ranks hold identical results.
#include <cstring>
#include <vector>

#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

namespace {

void rsag_raw(Context& ctx, const Call& c, const Fold& f) {
  const std::size_t es = dtype_size(c.dtype);
  char* acc = byte_ptr(c.recv);
  std::vector<char> tmp;
  if (ctx.rank < 2 * f.rem) {
    if (f.sits_out(ctx.rank)) {
      send_bytes(ctx, ctx.rank + 1, acc, c.count * es, tag_fold);
    } else {
      tmp.resize(c.count * es);
      recv_bytes(ctx, ctx.rank - 1, tmp.data(), c.count * es, tag_fold);
      reduce_into(acc, tmp.data(), c.count, c.dtype, c.op);
    }
  }
  if (f.newrank >= 0) {
    tmp.resize(blocks_range(c.count, f.p2, 0, f.p2 / 2).size() * es);
    int lo = 0, nblk = f.p2;
    for (int mask = f.p2 / 2; mask >= 1; mask >>= 1) {
      const auto [peer, upper, keep, give] = halving_step(c.count, f, mask, lo, nblk);
      sendrecv(ctx, peer, acc + give.begin * es, give.size() * es, peer, tmp.data(), keep.size() * es);
      reduce_into(acc + keep.begin * es, tmp.data(), keep.size(), c.dtype, c.op);
      if (upper) lo += nblk / 2;
      nblk /= 2;
    }
    for (int mask = 1; mask < f.p2; mask <<= 1) {
      int peer = f.real(f.newrank ^ mask), plo = lo ^ mask;
      Range mine = blocks_range(c.count, f.p2, lo, lo + nblk), theirs = blocks_range(c.count, f.p2, plo, plo + nblk);
      sendrecv(ctx, peer, acc + mine.begin * es, mine.size() * es, peer, acc + theirs.begin * es, theirs.size() * es);
      lo = lo < plo ? lo : plo;
      nblk *= 2;
    }
  }
  if (ctx.rank < 2 * f.rem) {
    if (f.sits_out(ctx.rank)) recv_bytes(ctx, ctx.rank + 1, acc, c.count * es, tag_fold);
    else send_bytes(ctx, ctx.rank - 1, acc, c.count * es, tag_fold);
  }
}

void rsag_lossy(Context& ctx, const Call& c, const Fold& f) {
  Codec& codec = *c.codec;
  float* acc = static_cast<float*>(c.recv);
  std::vector<std::byte> out, in;
  std::vector<float> tmp;
  auto set_cap = [&](int b0, int b1) {  // bound on a serialized set of blocks [b0, b1)
    std::size_t cap = 8 * static_cast<std::size_t>(b1 - b0);
    for (int b = b0; b < b1; ++b) cap += codec.max_compressed_bytes(block_of(c.count, f.p2, b).length);
    return cap;
  };
  if (ctx.rank < 2 * f.rem) {
    if (f.sits_out(ctx.rank)) {
      auto p = pack(codec, {acc, c.count}, out);
      send_bytes(ctx, ctx.rank + 1, p.data(), p.size(), tag_fold);
    } else {
      in.resize(codec.max_compressed_bytes(c.count));
      tmp.resize(c.count);
      std::size_t got = recv_bytes(ctx, ctx.rank - 1, in.data(), in.size(), tag_fold);
      codec.decompress({in.data(), got}, tmp);
      for (std::size_t i = 0; i < c.count; ++i) acc[i] += tmp[i];
    }
  }
  std::vector<std::vector<std::byte>> pk(static_cast<std::size_t>(f.p2));
  if (f.newrank >= 0) {
    Range first_half = blocks_range(c.count, f.p2, 0, f.p2 / 2);
    tmp.resize(first_half.size());
    in.resize(codec.max_compressed_bytes(first_half.size()));
    int lo = 0, nblk = f.p2;
    for (int mask = f.p2 / 2; mask >= 1; mask >>= 1) {
      const auto [peer, upper, keep, give] = halving_step(c.count, f, mask, lo, nblk);
      auto p = pack(codec, {acc + give.begin, give.size()}, out);
      std::size_t got = sendrecv(ctx, peer, p.data(), p.size(), peer, in.data(), in.size());
      codec.decompress({in.data(), got}, {tmp.data(), keep.size()});
      for (std::size_t i = 0; i < keep.size(); ++i) acc[keep.begin + i] += tmp[i];
      if (upper) lo += nblk / 2;
      nblk /= 2;
    }
    Block own = block_of(c.count, f.p2, f.newrank);
    auto p = pack(codec, {acc + own.offset, own.length}, out);
    pk[static_cast<std::size_t>(f.newrank)].assign(p.begin(), p.end());
    codec.decompress(p, {acc + own.offset, own.length});
    std::vector<std::byte> set;
    for (int mask = 1; mask < f.p2; mask <<= 1) {
      int peer = f.real(f.newrank ^ mask), plo = lo ^ mask;
      serialize_blocks(pk, lo, lo + nblk, set);
      in.resize(set_cap(plo, plo + nblk));
      std::size_t got = sendrecv(ctx, peer, set.data(), set.size(), peer, in.data(), in.size());
      deserialize_blocks(in.data(), got, plo, plo + nblk, pk);
      for (int b = plo; b < plo + nblk; ++b) {
        Block blk = block_of(c.count, f.p2, b);
        codec.decompress(pk[static_cast<std::size_t>(b)], {acc + blk.offset, blk.length});
      }
      lo = lo < plo ? lo : plo;
      nblk *= 2;
    }
  }
  if (ctx.rank < 2 * f.rem) {
    std::vector<std::byte> set;
    if (f.sits_out(ctx.rank)) {
      set.resize(set_cap(0, f.p2));
      std::size_t got = recv_bytes(ctx, ctx.rank + 1, set.data(), set.size(), tag_fold);
      deserialize_blocks(set.data(), got, 0, f.p2, pk);
      for (int b = 0; b < f.p2; ++b) {
        Block blk = block_of(c.count, f.p2, b);
        codec.decompress(pk[static_cast<std::size_t>(b)], {acc + blk.offset, blk.length});
      }
    } else {
      serialize_blocks(pk, 0, f.p2, set);
      send_bytes(ctx, ctx.rank - 1, set.data(), set.size(), tag_fold);
    }
  }
}

}  // namespace

void allreduce_rsag(Context& ctx, const Call& c) {
  if (!allreduce_start(ctx, c)) return;
  Fold f(ctx.rank, ctx.size);
  c.codec ? rsag_lossy(ctx, c, f) : rsag_raw(ctx, c, f);
}

}  // namespace ferry::comm::detail
