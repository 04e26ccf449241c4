// Deadline-driven progress for nonblocking MPI requests.
#include <algorithm>
#include <climits>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "context.hpp"

namespace ferry::comm::detail {

void throw_mpi(const Context& ctx, int rc, const char* call) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw CommError(CommError::Kind::mpi, fmt::format("ferry-comm {} on rank {} of {}: {} failed: {}", ctx.what, ctx.rank,
                                                    ctx.size, call, std::string(text, static_cast<std::size_t>(len))));
}

int as_int_count(const Context& ctx, std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw UsageError(
        fmt::format("ferry-comm {}: a single message of {} bytes exceeds the 2 GiB MPI limit", ctx.what, bytes));
  return static_cast<int>(bytes);
}

void wait_all(Context& ctx, std::span<MPI_Request> reqs, std::span<const int> peers, std::span<std::size_t> rbytes) {
  using clock = std::chrono::steady_clock;
  const auto timeout = std::chrono::duration_cast<clock::duration>(ctx.comm.timeout());
  auto deadline = clock::now() + timeout;
  int n = static_cast<int>(reqs.size());
  std::vector<int> done(reqs.size(), 0);
  std::vector<int> indices(reqs.size());
  std::vector<MPI_Status> statuses(reqs.size());
  int remaining = n;
  unsigned spins = 0;
  while (remaining > 0) {
    int outcount = 0;
    int rc = MPI_Testsome(n, reqs.data(), &outcount, indices.data(), statuses.data());
    if (rc == MPI_ERR_IN_STATUS) {
      for (int k = 0; k < outcount; ++k)
        if (statuses[k].MPI_ERROR != MPI_SUCCESS) throw_mpi(ctx, statuses[k].MPI_ERROR, "MPI_Testsome");
    }
    check(ctx, rc, "MPI_Testsome");
    if (outcount == MPI_UNDEFINED) break;
    for (int k = 0; k < outcount; ++k) {
      auto i = static_cast<std::size_t>(indices[k]);
      done[i] = 1;
      --remaining;
      if (!rbytes.empty()) {
        int c = 0;
        MPI_Get_count(&statuses[k], MPI_BYTE, &c);
        rbytes[i] = static_cast<std::size_t>(c);
      }
    }
    if (outcount > 0) {
      deadline = clock::now() + timeout;  // progress was made: the deadline is for silence
      spins = 0;
      continue;
    }
    if (++spins < 64) continue;
    if (clock::now() > deadline) {
      std::string waiting;
      std::vector<int> named;  // a peer with a pending send and receive is named once
      for (std::size_t i = 0; i < reqs.size(); ++i) {
        if (done[i]) continue;
        if (peers[i] >= 0 && std::find(named.begin(), named.end(), peers[i]) != named.end()) continue;
        named.push_back(peers[i]);
        waiting += peers[i] < 0 ? std::string("(collective header: any rank)")
                                : fmt::format("{}{}", waiting.empty() ? "" : ", ", peers[i]);
      }
      throw CommError(CommError::Kind::timeout,
                      fmt::format("ferry-comm {} on rank {} of {}: no answer from rank(s) {} within {:.3g} s; "
                                  "a peer has died, hangs, or left the collective",
                                  ctx.what, ctx.rank, ctx.size, waiting, ctx.comm.timeout().count()));
    }
    std::this_thread::yield();  // oversubscribed ranks must let their peers run
  }
}

std::size_t sendrecv(Context& ctx, int dst, const void* sbuf, std::size_t sbytes, int src, void* rbuf, std::size_t rcap,
                     int tag) {
  MPI_Request reqs[2];
  check(ctx, MPI_Irecv(rbuf, as_int_count(ctx, rcap), MPI_BYTE, src, tag, ctx.comm.mpi(), &reqs[0]), "MPI_Irecv");
  check(ctx, MPI_Isend(sbuf, as_int_count(ctx, sbytes), MPI_BYTE, dst, tag, ctx.comm.mpi(), &reqs[1]), "MPI_Isend");
  ctx.bytes_sent += sbytes;
  int peers[2] = {src, dst};
  std::size_t got[2] = {0, 0};
  wait_all(ctx, reqs, peers, got);
  return got[0];
}

void send_bytes(Context& ctx, int dst, const void* buf, std::size_t bytes, int tag) {
  MPI_Request req;
  check(ctx, MPI_Isend(buf, as_int_count(ctx, bytes), MPI_BYTE, dst, tag, ctx.comm.mpi(), &req), "MPI_Isend");
  ctx.bytes_sent += bytes;
  int peer = dst;
  wait_all(ctx, {&req, 1}, {&peer, 1});
}

std::size_t recv_bytes(Context& ctx, int src, void* buf, std::size_t cap, int tag) {
  MPI_Request req;
  check(ctx, MPI_Irecv(buf, as_int_count(ctx, cap), MPI_BYTE, src, tag, ctx.comm.mpi(), &req), "MPI_Irecv");
  int peer = src;
  std::size_t got = 0;
  wait_all(ctx, {&req, 1}, {&peer, 1}, {&got, 1});
  return got;
}

std::vector<std::int64_t> agree(Context& ctx, std::span<const Field> fields) {
  const std::size_t k = fields.size();
  std::vector<std::int64_t> v(2 * k);
  for (std::size_t i = 0; i < k; ++i) {
    v[i] = fields[i].value;
    v[k + i] = fields[i].value == INT64_MIN ? INT64_MAX : -fields[i].value;
  }
  if (ctx.size > 1) {
    MPI_Request req;
    check(ctx,
          MPI_Iallreduce(MPI_IN_PLACE, v.data(), static_cast<int>(2 * k), MPI_INT64_T, MPI_MAX, ctx.comm.mpi(), &req),
          "MPI_Iallreduce");
    int any = -1;
    wait_all(ctx, {&req, 1}, {&any, 1});
  }
  std::string problems;
  for (std::size_t i = 0; i < k; ++i) {
    std::string_view name = fields[i].name;
    if (name.starts_with("max:")) continue;
    std::int64_t mx = v[i], mn = -v[k + i];
    if (mx != mn)
      problems += fmt::format("{}{} (min {}, max {}, this rank {})", problems.empty() ? "" : "; ", name, mn, mx,
                              fields[i].value);
  }
  if (!problems.empty())
    throw CommError(CommError::Kind::mismatch, fmt::format("ferry-comm {} on rank {} of {}: ranks disagree on {}",
                                                           ctx.what, ctx.rank, ctx.size, problems));
  v.resize(k);
  return v;
}

std::span<const std::byte> pack(Codec& codec, std::span<const float> in, std::vector<std::byte>& out) {
  std::size_t cap = codec.max_compressed_bytes(in.size());
  if (out.size() < cap) out.resize(cap);
  std::size_t n = codec.compress(in, out);
  return {out.data(), n};
}

}  // namespace ferry::comm::detail
