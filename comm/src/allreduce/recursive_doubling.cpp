// Recursive-doubling allreduce: ranks beyond the largest power of two fold into a partner first,
// then log2(p2) exchanges of the whole vector, then the folded ranks get the result back.
// Lossy path: both partners of an exchange sum decompress(own) + decompress(peer), so the pair
// holds identical bits; a folded rank receives the last exchange's two compressed messages and
// forms the same sum.
#include <cstring>
#include <vector>

#include "../algorithms.hpp"
#include "../core/helpers.hpp"

namespace ferry::comm::detail {

namespace {

void rd_raw(Context& ctx, const Call& c, const Fold& f) {
  const std::size_t bytes = c.count * dtype_size(c.dtype);
  char* acc = byte_ptr(c.recv);
  std::vector<char> tmp(bytes);
  if (ctx.rank < 2 * f.rem) {
    if (f.sits_out(ctx.rank)) {
      send_bytes(ctx, ctx.rank + 1, acc, bytes, tag_fold);
    } else {
      recv_bytes(ctx, ctx.rank - 1, tmp.data(), bytes, tag_fold);
      reduce_into(acc, tmp.data(), c.count, c.dtype, c.op);
    }
  }
  if (f.newrank >= 0) {
    for (int mask = 1; mask < f.p2; mask <<= 1) {
      int peer = f.real(f.newrank ^ mask);
      sendrecv(ctx, peer, acc, bytes, peer, tmp.data(), bytes);
      reduce_into(acc, tmp.data(), c.count, c.dtype, c.op);  // a op b == b op a bit for bit
    }
  }
  if (ctx.rank < 2 * f.rem) {
    if (f.sits_out(ctx.rank)) recv_bytes(ctx, ctx.rank + 1, acc, bytes, tag_fold);
    else send_bytes(ctx, ctx.rank - 1, acc, bytes, tag_fold);
  }
}

void rd_lossy(Context& ctx, const Call& c, const Fold& f) {
  Codec& codec = *c.codec;
  const std::size_t n = c.count;
  float* acc = static_cast<float*>(c.recv);
  const std::size_t cap = codec.max_compressed_bytes(n);
  std::vector<std::byte> mine, theirs(cap), both;
  std::vector<float> tmp(n);
  if (ctx.rank < 2 * f.rem) {
    if (f.sits_out(ctx.rank)) {
      auto p = pack(codec, {acc, n}, mine);
      send_bytes(ctx, ctx.rank + 1, p.data(), p.size(), tag_fold);
    } else {
      std::size_t got = recv_bytes(ctx, ctx.rank - 1, theirs.data(), cap, tag_fold);
      codec.decompress({theirs.data(), got}, tmp);
      for (std::size_t i = 0; i < n; ++i) acc[i] += tmp[i];
    }
  }
  std::size_t mine_bytes = 0, theirs_bytes = 0;
  if (f.newrank >= 0) {
    for (int mask = 1; mask < f.p2; mask <<= 1) {
      int peer = f.real(f.newrank ^ mask);
      auto p = pack(codec, {acc, n}, mine);
      mine_bytes = p.size();
      theirs_bytes = sendrecv(ctx, peer, p.data(), p.size(), peer, theirs.data(), cap);
      codec.decompress(p, {acc, n});
      codec.decompress({theirs.data(), theirs_bytes}, tmp);
      for (std::size_t i = 0; i < n; ++i) acc[i] += tmp[i];
    }
  }
  if (ctx.rank < 2 * f.rem) {
    if (f.sits_out(ctx.rank)) {
      both.resize(8 + 2 * cap);
      std::size_t got = recv_bytes(ctx, ctx.rank + 1, both.data(), both.size(), tag_fold);
      std::uint64_t la;
      std::memcpy(&la, both.data(), 8);
      if (la + 8 > got) throw CommError(CommError::Kind::mismatch, "ferry-comm: corrupt fold message");
      codec.decompress({both.data() + 8, la}, {acc, n});
      codec.decompress({both.data() + 8 + la, got - 8 - la}, tmp);
      for (std::size_t i = 0; i < n; ++i) acc[i] += tmp[i];
    } else {
      both.resize(8 + mine_bytes + theirs_bytes);
      std::uint64_t la = mine_bytes;
      std::memcpy(both.data(), &la, 8);
      std::memcpy(both.data() + 8, mine.data(), mine_bytes);
      std::memcpy(both.data() + 8 + mine_bytes, theirs.data(), theirs_bytes);
      send_bytes(ctx, ctx.rank - 1, both.data(), both.size(), tag_fold);
    }
  }
}

}  // namespace

void allreduce_recursive_doubling(Context& ctx, const Call& c) {
  if (!allreduce_start(ctx, c)) return;
  Fold f(ctx.rank, ctx.size);
  c.codec ? rd_lossy(ctx, c, f) : rd_raw(ctx, c, f);
}

}  // namespace ferry::comm::detail
