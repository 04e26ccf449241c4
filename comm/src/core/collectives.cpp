// Public entry points: argument checks on this rank, the cross-rank header check, algorithm
// selection, codec setup with its per-compression bound, then the algorithm itself.
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../codecs/codecs.hpp"
#include "context.hpp"
#include "ferry/comm/collectives.hpp"
#include "ferry/comm/tuning.hpp"

namespace ferry::comm {

using detail::Call;
using detail::Context;
using detail::Field;

Block block_of(std::size_t count, int nblocks, int index) {
  const auto n = static_cast<std::size_t>(nblocks), i = static_cast<std::size_t>(index);
  const std::size_t base = count / n, extra = count % n;
  return {i * base + (i < extra ? i : extra), base + (i < extra ? 1 : 0)};
}

namespace {

std::int64_t hash_of(std::string_view s) {  // FNV-1a: identical on every rank, unlike std::hash
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : s) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return static_cast<std::int64_t>(h >> 1);
}

const Algorithm& choose(Communicator& comm, Collective coll, std::string_view name, std::size_t bytes) {
  if (name.empty()) return comm.tuning().select(coll, bytes);
  const Algorithm* a = find_algorithm(coll, name);
  if (a == nullptr)
    throw UsageError(fmt::format("ferry-comm: no {} algorithm named '{}'", collective_name(coll), name));
  return *a;
}

void need_buffer(const void* p, std::size_t count, const char* what, const char* which) {
  if (p == nullptr && count > 0) throw UsageError(fmt::format("ferry-comm {}: {} buffer is null", what, which));
}

// The cross-rank header: every field must agree, except "max:scale" whose maximum is returned.
// A rank whose local checks failed (local_error) still takes part, marked invalid, so the other
// ranks fail at once with CommError(mismatch) instead of waiting for the timeout; it then throws
// its own UsageError.
struct Header {
  Collective coll;
  std::size_t count;
  DType dtype;
  ReduceOp op;
  int root;
  std::string_view codec;
  double scale = 0;
};

double exchange_header(Communicator& comm, const Algorithm* alg, const Header& h, std::exception_ptr local_error,
                       bool force = false) {
  if (!comm.check_args() && !force) {
    if (local_error) std::rethrow_exception(local_error);
    return h.scale;
  }
  Context ctx(comm, fmt::format("{}/{}", collective_name(h.coll), alg ? alg->name : "?"));
  const Field fields[] = {{"collective", static_cast<std::int64_t>(h.coll)},
                          {"count", static_cast<std::int64_t>(h.count)},
                          {"dtype", static_cast<std::int64_t>(h.dtype)},
                          {"op", static_cast<std::int64_t>(h.op)},
                          {"root", h.root},
                          {"algorithm", alg ? hash_of(alg->name) : 0},
                          {"codec", hash_of(h.codec)},
                          {"arguments valid", local_error ? 0 : 1},
                          {"max:scale", std::bit_cast<std::int64_t>(h.scale)}};
  std::vector<std::int64_t> agreed;
  try {
    agreed = detail::agree(ctx, fields);
  } catch (const CommError&) {
    if (local_error) std::rethrow_exception(local_error);
    throw;
  }
  if (local_error) std::rethrow_exception(local_error);
  return std::bit_cast<double>(agreed.back());
}

}  // namespace

AllreduceStats allreduce(Communicator& comm, const void* send, void* recv, std::size_t count, DType dtype, ReduceOp op,
                         const AllreduceOptions& o) {
  const std::size_t bytes = count * dtype_size(dtype);
  const bool lossy = o.codec != nullptr && o.codec->lossy();
  const std::string codec_name = o.codec ? o.codec->str() : "";
  // A bound relative to the data needs the largest |x| on any rank; it rides along the header
  // (non-negative doubles order like their bit patterns), so the header is exchanged even when
  // check_args is off.
  const bool needs_scale = lossy && o.codec->bounded_by_value() && o.codec->abs <= 0;
  const Algorithm* alg = nullptr;
  double local_scale = 0;
  std::exception_ptr local_error;
  try {
    need_buffer(send, count, "allreduce", "send");
    need_buffer(recv, count, "allreduce", "recv");
    alg = &choose(comm, Collective::allreduce, o.algorithm, bytes);
    if (lossy) {
      if (dtype != DType::f32 || op != ReduceOp::sum)
        throw UsageError(fmt::format("ferry-comm allreduce: codec '{}' needs f32 data and sum (got {} {})", codec_name,
                                     dtype_name(dtype), op_name(op)));
      if (!alg->supports_codec) throw UsageError(fmt::format("ferry-comm allreduce/{}: takes no codec", alg->name));
      if (!o.residual.empty() && o.residual.size() != count)
        throw UsageError(
            fmt::format("ferry-comm allreduce: residual has {} elements, data {}", o.residual.size(), count));
    }
    if (needs_scale) {
      local_scale = codec_detail::max_finite_abs({static_cast<const float*>(send), count});
      if (!o.residual.empty()) local_scale += codec_detail::max_finite_abs(o.residual);
    }
  } catch (const UsageError&) {
    local_error = std::current_exception();
  }
  const double scale = exchange_header(comm, alg, {Collective::allreduce, count, dtype, op, 0, codec_name, local_scale},
                                       local_error, needs_scale);
  Context ctx(comm, fmt::format("allreduce/{}", alg->name));
  AllreduceStats stats{alg->name};
  const int P = comm.size();
  std::unique_ptr<Codec> codec;
  if (lossy) {
    double per = 0;
    if (o.codec->bounded_by_value()) {
      double total = o.codec->abs > 0 ? o.codec->abs : o.codec->rel * scale;
      per = P > 1 ? total / alg->abs_error_terms(P) : total;
      stats.end_to_end_bound = total;
      stats.per_compression_bound = per;
      // A zero bound (all-zero data under a relative bound) would ask for lossless coding: any
      // positive bound is then exact since every input is 0.
      if (per <= 0) per = std::numeric_limits<float>::min();
    }
    codec = make_codec(*o.codec, per);
  }
  Call call{Collective::allreduce, send, recv, count, dtype, op, 0, codec.get()};
  if (lossy && !o.residual.empty()) {
    float* x = static_cast<float*>(recv);
    if (send != recv && count > 0) std::memmove(recv, send, bytes);
    apply_error_feedback(*codec, {x, count}, o.residual);
    call.send = recv;
  }
  if (P == 1) {
    if (call.send != recv && count > 0) std::memmove(recv, call.send, bytes);
    return stats;
  }
  alg->run(ctx, call);
  stats.bytes_sent = ctx.bytes_sent;
  return stats;
}

void reduce_scatter(Communicator& comm, const void* send, void* recv, std::size_t count, DType dtype, ReduceOp op,
                    std::string_view algorithm) {
  const Algorithm* alg = nullptr;
  std::exception_ptr local_error;
  try {
    need_buffer(send, count, "reduce_scatter", "send");
    need_buffer(recv, block_of(count, comm.size(), comm.rank()).length, "reduce_scatter", "recv");
    alg = &choose(comm, Collective::reduce_scatter, algorithm, count * dtype_size(dtype));
  } catch (const UsageError&) {
    local_error = std::current_exception();
  }
  exchange_header(comm, alg, {Collective::reduce_scatter, count, dtype, op, 0, {}}, local_error);
  Context ctx(comm, fmt::format("reduce_scatter/{}", alg->name));
  alg->run(ctx, Call{Collective::reduce_scatter, send, recv, count, dtype, op});
}

void allgather(Communicator& comm, const void* send, void* recv, std::size_t count, DType dtype,
               std::string_view algorithm) {
  const Algorithm* alg = nullptr;
  std::exception_ptr local_error;
  try {
    need_buffer(send, block_of(count, comm.size(), comm.rank()).length, "allgather", "send");
    need_buffer(recv, count, "allgather", "recv");
    alg = &choose(comm, Collective::allgather, algorithm, count * dtype_size(dtype));
  } catch (const UsageError&) {
    local_error = std::current_exception();
  }
  exchange_header(comm, alg, {Collective::allgather, count, dtype, ReduceOp::sum, 0, {}}, local_error);
  Context ctx(comm, fmt::format("allgather/{}", alg->name));
  alg->run(ctx, Call{Collective::allgather, send, recv, count, dtype});
}

void broadcast(Communicator& comm, void* buf, std::size_t count, DType dtype, int root, std::string_view algorithm) {
  const Algorithm* alg = nullptr;
  std::exception_ptr local_error;
  try {
    need_buffer(buf, count, "broadcast", "data");
    if (root < 0 || root >= comm.size())
      throw UsageError(fmt::format("ferry-comm broadcast: root {} outside 0..{}", root, comm.size() - 1));
    alg = &choose(comm, Collective::broadcast, algorithm, count * dtype_size(dtype));
  } catch (const UsageError&) {
    local_error = std::current_exception();
  }
  exchange_header(comm, alg, {Collective::broadcast, count, dtype, ReduceOp::sum, root, {}}, local_error);
  if (comm.size() == 1) return;
  Context ctx(comm, fmt::format("broadcast/{}", alg->name));
  alg->run(ctx, Call{Collective::broadcast, buf, buf, count, dtype, ReduceOp::sum, root});
}

void barrier(Communicator& comm, std::string_view algorithm) {
  const Algorithm* alg = nullptr;
  std::exception_ptr local_error;
  try {
    alg = &choose(comm, Collective::barrier, algorithm, 0);
  } catch (const UsageError&) {
    local_error = std::current_exception();
  }
  exchange_header(comm, alg, {Collective::barrier, 0, DType::u8, ReduceOp::sum, 0, {}}, local_error);
  Context ctx(comm, fmt::format("barrier/{}", alg->name));
  alg->run(ctx, Call{Collective::barrier});
}

// Point to point: with check_args, the receiver sees the sender's (count, dtype) first and
// answers ok/mismatch, so both sides fail together instead of truncating or hanging.
namespace {
constexpr int p2p_tag_limit = 10000;  // keeps every tag under the MPI minimum of 32767
int header_tag(int tag) { return detail::tag_user + 3 * tag; }
int ack_tag(int tag) { return detail::tag_user + 3 * tag + 1; }
int data_tag(int tag) { return detail::tag_user + 3 * tag + 2; }
void check_p2p(const Communicator& comm, int peer, int tag, const char* what) {
  if (peer < 0 || peer >= comm.size())
    throw UsageError(fmt::format("ferry-comm {}: peer {} outside 0..{}", what, peer, comm.size() - 1));
  if (tag < 0 || tag >= p2p_tag_limit)
    throw UsageError(fmt::format("ferry-comm {}: tag {} outside 0..{}", what, tag, p2p_tag_limit - 1));
}
}  // namespace

void send(Communicator& comm, const void* buf, std::size_t count, DType dtype, int dest, int tag) {
  need_buffer(buf, count, "send", "data");
  check_p2p(comm, dest, tag, "send");
  Context ctx(comm, fmt::format("send to {}", dest));
  if (comm.check_args()) {
    std::int64_t header[2] = {static_cast<std::int64_t>(count), static_cast<std::int64_t>(dtype)}, answer[2];
    detail::send_bytes(ctx, dest, header, sizeof header, header_tag(tag));
    detail::recv_bytes(ctx, dest, answer, sizeof answer, ack_tag(tag));
    if (answer[0] != header[0] || answer[1] != header[1])
      throw CommError(
          CommError::Kind::mismatch,
          fmt::format("ferry-comm send on rank {}: rank {} expects {} x {}, this rank sends {} x {}", comm.rank(), dest,
                      answer[0], dtype_name(static_cast<DType>(answer[1])), count, dtype_name(dtype)));
  }
  detail::send_bytes(ctx, dest, buf, count * dtype_size(dtype), data_tag(tag));
}

void recv(Communicator& comm, void* buf, std::size_t count, DType dtype, int source, int tag) {
  need_buffer(buf, count, "recv", "data");
  check_p2p(comm, source, tag, "recv");
  Context ctx(comm, fmt::format("recv from {}", source));
  if (comm.check_args()) {
    std::int64_t header[2], mine[2] = {static_cast<std::int64_t>(count), static_cast<std::int64_t>(dtype)};
    detail::recv_bytes(ctx, source, header, sizeof header, header_tag(tag));
    detail::send_bytes(ctx, source, mine, sizeof mine, ack_tag(tag));
    if (header[0] != mine[0] || header[1] != mine[1])
      throw CommError(
          CommError::Kind::mismatch,
          fmt::format("ferry-comm recv on rank {}: rank {} sends {} x {}, this rank expects {} x {}", comm.rank(),
                      source, header[0], dtype_name(static_cast<DType>(header[1])), count, dtype_name(dtype)));
  }
  std::size_t got = detail::recv_bytes(ctx, source, buf, count * dtype_size(dtype), data_tag(tag));
  if (got != count * dtype_size(dtype))
    throw CommError(CommError::Kind::mismatch, fmt::format("ferry-comm recv on rank {}: got {} bytes, expected {}",
                                                           comm.rank(), got, count * dtype_size(dtype)));
}

}  // namespace ferry::comm
