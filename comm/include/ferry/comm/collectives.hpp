// The collectives. Every call takes the Communicator, checks its arguments against every other
// rank's (CommOptions::check_args), picks an algorithm by message size unless one is named,
// and waits at most Communicator::timeout() for peers. Buffers are host memory.
//
// Partition: reduce_scatter and allgather split `count` elements into size() blocks whose sizes
// differ by at most one (the first count % size() blocks are one longer); block_of() gives the
// [offset, offset+length) of a rank's block.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "ferry/comm/codec.hpp"
#include "ferry/comm/communicator.hpp"
#include "ferry/comm/types.hpp"

namespace ferry::comm {

struct Block {
  std::size_t offset, length;
};
Block block_of(std::size_t count, int nblocks, int index);

struct AllreduceOptions {
  std::string_view algorithm;        // empty: selected by size through the tuning rules
  const CodecSpec* codec = nullptr;  // lossy codec: float32 + sum only
  std::span<float> residual;         // with a codec: error-feedback residual kept by the caller
};

struct AllreduceStats {
  std::string_view algorithm;
  std::size_t bytes_sent = 0;        // payload bytes this rank put on the wire
  double per_compression_bound = 0;  // absolute codecs: bound used for each compression
  double end_to_end_bound = 0;       // absolute codecs: guaranteed bound of every output element
};

// recv may equal send (in place).
AllreduceStats allreduce(Communicator& comm, const void* send, void* recv, std::size_t count, DType dtype, ReduceOp op,
                         const AllreduceOptions& options = {});

// send holds count elements; recv receives this rank's block_of(count, size, rank).
void reduce_scatter(Communicator& comm, const void* send, void* recv, std::size_t count, DType dtype, ReduceOp op,
                    std::string_view algorithm = {});

// send holds this rank's block_of(count, size, rank); recv receives all count elements.
void allgather(Communicator& comm, const void* send, void* recv, std::size_t count, DType dtype,
               std::string_view algorithm = {});

void broadcast(Communicator& comm, void* buf, std::size_t count, DType dtype, int root,
               std::string_view algorithm = {});

void barrier(Communicator& comm, std::string_view algorithm = {});

// Point to point, with the communicator's deadline. The receiver checks count and dtype against
// the sender's and throws CommError(mismatch) if they differ.
void send(Communicator& comm, const void* buf, std::size_t count, DType dtype, int dest, int tag = 0);
void recv(Communicator& comm, void* buf, std::size_t count, DType dtype, int source, int tag = 0);

}  // namespace ferry::comm
