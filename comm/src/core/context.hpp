// Internal: what an algorithm receives (Call), what it runs in (Context), and the point-to-point
// transport every algorithm uses. The transport posts nonblocking MPI requests and drives them in
// a progress loop with a deadline, so a silent peer turns into CommError(timeout) naming the peer
// instead of a hang.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "ferry/comm/codec.hpp"
#include "ferry/comm/communicator.hpp"
#include "ferry/comm/tuning.hpp"
#include "ferry/comm/types.hpp"

namespace ferry::comm::detail {

struct Call {
  Collective collective;
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t count = 0;
  DType dtype = DType::f32;
  ReduceOp op = ReduceOp::sum;
  int root = 0;
  Codec* codec = nullptr;  // allreduce only: lossy path on float32 sums when set
};

struct Context {
  Communicator& comm;
  std::string what;  // "allreduce/ring", used in every error message
  int rank;
  int size;
  std::size_t bytes_sent = 0;

  Context(Communicator& c, std::string w) : comm(c), what(std::move(w)), rank(c.rank()), size(c.size()) {}
};

// Tags keep the phases of one collective apart; MPI's ordering per (source, tag, communicator)
// keeps successive collectives apart because every rank calls them in the same order.
enum Tag : int { tag_header = 1, tag_data = 2, tag_fold = 3, tag_ack = 4, tag_user = 100 };

[[noreturn]] void throw_mpi(const Context& ctx, int rc, const char* call);
inline void check(const Context& ctx, int rc, const char* call) {
  if (rc != MPI_SUCCESS) throw_mpi(ctx, rc, call);
}

// `bytes` as an MPI count; UsageError naming the collective when it exceeds INT_MAX.
int as_int_count(const Context& ctx, std::size_t bytes);

// Waits for all requests; peers[i] is the rank request i talks to (for the timeout message).
// Returns nothing; received byte counts are written to rbytes[i] when rbytes is not empty.
void wait_all(Context& ctx, std::span<MPI_Request> reqs, std::span<const int> peers,
              std::span<std::size_t> rbytes = {});

// Exchange with two peers at once (dst may differ from src). Returns bytes received.
std::size_t sendrecv(Context& ctx, int dst, const void* sbuf, std::size_t sbytes, int src, void* rbuf, std::size_t rcap,
                     int tag = tag_data);
void send_bytes(Context& ctx, int dst, const void* buf, std::size_t bytes, int tag = tag_data);
std::size_t recv_bytes(Context& ctx, int src, void* buf, std::size_t cap, int tag = tag_data);

// acc[i] = acc[i] (op) in[i] for n elements of dtype.
void reduce_into(void* acc, const void* in, std::size_t n, DType dtype, ReduceOp op);

// Checks that every rank passes the same fields (MPI_Iallreduce of max and -min with the deadline).
// Field values named "max:..." are not compared: their maximum over ranks is returned instead.
struct Field {
  const char* name;
  std::int64_t value;
};
std::vector<std::int64_t> agree(Context& ctx, std::span<const Field> fields);

// Lossy wire helpers: compress into a reusable buffer and return the bytes.
std::span<const std::byte> pack(Codec& codec, std::span<const float> in, std::vector<std::byte>& out);

inline char* byte_ptr(void* p) { return static_cast<char*>(p); }
inline const char* byte_ptr(const void* p) { return static_cast<const char*>(p); }

}  // namespace ferry::comm::detail
