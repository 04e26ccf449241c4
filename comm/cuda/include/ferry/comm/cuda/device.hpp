// ferry-comm on device buffers: allreduce of float32 data that lives in GPU memory.
//
//   ferry::comm::Communicator comm(MPI_COMM_WORLD);
//   ferry::comm::cuda::DeviceComm dev(comm, stream);
//   auto spec = ferry::comm::CodecSpec::parse("int8");
//   dev.allreduce(d_grad, n, {.codec = &spec, .residual = d_residual});
//
// Paths (DeviceAllreduceStats::path says which one ran):
//   nccl        uncompressed, when built with NCCL and every rank has its own GPU: ncclAllReduce
//               on the device buffer. NCCL is set up on first use (unique id broadcast over MPI).
//   mpi-staged  uncompressed otherwise: device -> pinned host -> ferry-comm allreduce -> device
//               (MPI here is not assumed to be CUDA-aware).
//   gpu-int8, gpu-eb
//               compressed on the GPU with the CUDA codecs: each rank compresses the P-1 parts it
//               does not own (with error feedback for int8: x' = x + r, r = x' - y; its own part
//               absorbs r exactly), the parts travel through host memory (MPI_Alltoallv), the
//               owner decompresses and sums them onto its exact part, compresses the sum once and
//               all ranks gather and decompress the same bytes: results are identical on every
//               rank. Wire bytes per rank: about 2 (P-1)/P of the compressed size of n floats.
//               eb: the spec's abs (or rel times the largest finite |x| on any rank) is the
//               end-to-end bound; each of the P error terms gets 1/P of it.
//   host-codec  any other codec (bf16, fp16, int4, int2, zfp, eb with zstd, or eb with a residual):
//               the buffer (and residual) is staged to host and the CPU collective runs there.
// Every call is collective, blocks until the result is in `data`, and uses only `stream`. The
// mpi-staged, gpu-* and host-codec paths wait for peers at most Communicator::timeout() (then
// CommError(timeout) names the silent peer); NCCL's set-up and ncclAllReduce have no such deadline.
// Usage errors throw ferry::comm::UsageError; MPI, NCCL and CUDA failures throw CommError or
// std::runtime_error naming the call.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <string>

#include "ferry/comm/codec.hpp"
#include "ferry/comm/communicator.hpp"

namespace ferry::comm::cuda {

enum class Transport { automatic, nccl, mpi };

struct DeviceAllreduceOptions {
  const CodecSpec* codec = nullptr;            // nullptr or "none": uncompressed
  float* residual = nullptr;                   // device, n floats, kept by the caller across steps (lossy codecs)
  Transport transport = Transport::automatic;  // uncompressed path: nccl (must work), mpi, or automatic
  bool host_codec = false;  // run a GPU-capable codec (int8, eb) on the host path instead (benchmarks)
};

struct DeviceAllreduceStats {
  std::string path;             // nccl, mpi-staged, gpu-int8, gpu-eb, host-codec, single-rank
  std::size_t bytes_sent = 0;   // payload bytes this rank put on the wire (compressed paths)
  double end_to_end_bound = 0;  // gpu-eb: guaranteed |y - exact sum| for every finite element
};

class DeviceComm {
 public:
  // Uses the current CUDA device of the calling thread; `stream` may be nullptr (legacy stream).
  explicit DeviceComm(Communicator& comm, cudaStream_t stream = nullptr);
  ~DeviceComm();
  DeviceComm(const DeviceComm&) = delete;
  DeviceComm& operator=(const DeviceComm&) = delete;

  // In place: data (device, n floats) becomes the sum over ranks.
  DeviceAllreduceStats allreduce(float* data, std::size_t n, const DeviceAllreduceOptions& options = {});

  // Whether NCCL is up for this communicator (sets it up, collectively, on first call), and if not, why.
  bool nccl_available();
  const std::string& nccl_reason() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ferry::comm::cuda
