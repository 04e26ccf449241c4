// Device-buffer allreduce (see include/ferry/comm/cuda/device.hpp for the paths and guarantees).
#include "ferry/comm/cuda/device.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "ferry/comm/collectives.hpp"
#include "ferry/comm/cuda/codecs.hpp"
#include "ferry/comm/types.hpp"
// The host collectives' deadline-driven point-to-point transport (same library).
#include "../src/core/context.hpp"

#ifdef FERRY_COMM_HAVE_NCCL
#include <nccl.h>
#endif

namespace ferry::comm::cuda {

namespace {

// Pinned host memory (kHost) or device memory, grown on demand.
template <bool kHost>
class Grown {
 public:
  ~Grown() {
    if (p_) kHost ? cudaFreeHost(p_) : cudaFree(p_);
  }
  std::byte* get(std::size_t bytes) {
    if (bytes > size_) {
      if (p_) check(kHost ? cudaFreeHost(p_) : cudaFree(p_), kHost ? "cudaFreeHost" : "cudaFree");
      p_ = nullptr;
      size_ = 0;
      void* q = nullptr;
      const std::size_t b = std::max<std::size_t>(bytes, 1);
      check(kHost ? cudaHostAlloc(&q, b, cudaHostAllocDefault) : cudaMalloc(&q, b),
            kHost ? "cudaHostAlloc" : "cudaMalloc");
      p_ = static_cast<std::byte*>(q);
      size_ = bytes;
    }
    return p_;
  }

 private:
  std::byte* p_ = nullptr;
  std::size_t size_ = 0;
};
using Pinned = Grown<true>;
using DevMem = Grown<false>;

}  // namespace

struct DeviceComm::Impl {
  Communicator& comm;
  cudaStream_t stream;
  Workspace ws;
  Pinned host_a, host_b;
  DevMem dstreams, drecv, dtmp;
  enum class Nccl { untried, up, unavailable } nccl_state = Nccl::untried;
  std::string nccl_why;
#ifdef FERRY_COMM_HAVE_NCCL
  ncclComm_t nccl = nullptr;
#endif

  std::vector<std::size_t> received_;  // bytes received from each rank in the last exchange

  Impl(Communicator& c, cudaStream_t s) : comm(c), stream(s) {}

  // Every rank sends send_of(peer) to each peer and receives into recv_of(peer) (capacity) from
  // each, all requests at once, waited for with the communicator's deadline. Fills received_.
  template <class SendOf, class RecvOf>
  void exchange(detail::Context& ctx, SendOf send_of, RecvOf recv_of, int tag, DeviceAllreduceStats& st) {
    const int P = comm.size(), me = comm.rank();
    std::vector<MPI_Request> reqs;
    std::vector<int> peers;
    received_.assign(static_cast<std::size_t>(P), 0);
    for (int d = 1; d < P; ++d) {
      const int src = (me - d + P) % P;
      auto [buf, cap] = recv_of(src);
      reqs.emplace_back();
      peers.push_back(src);
      detail::check(ctx, MPI_Irecv(buf, detail::as_int_count(ctx, cap), MPI_BYTE, src, tag, comm.mpi(), &reqs.back()),
                    "MPI_Irecv");
    }
    for (int d = 1; d < P; ++d) {
      const int dst = (me + d) % P;
      auto [buf, bytes] = send_of(dst);
      reqs.emplace_back();
      peers.push_back(dst);
      detail::check(ctx, MPI_Isend(buf, detail::as_int_count(ctx, bytes), MPI_BYTE, dst, tag, comm.mpi(), &reqs.back()),
                    "MPI_Isend");
      st.bytes_sent += bytes;
    }
    std::vector<std::size_t> got(reqs.size(), 0);
    detail::wait_all(ctx, reqs, peers, got);
    for (int d = 1; d < P; ++d) received_[(me - d + P) % P] = got[d - 1];
  }
  ~Impl() {
#ifdef FERRY_COMM_HAVE_NCCL
    if (nccl) ncclCommDestroy(nccl);
#endif
  }

  void sync() { check(cudaStreamSynchronize(stream), "cudaStreamSynchronize"); }

  // Collective: every rank reaches the same verdict.
  bool setup_nccl() {
    if (nccl_state != Nccl::untried) return nccl_state == Nccl::up;
    nccl_state = Nccl::unavailable;
#ifndef FERRY_COMM_HAVE_NCCL
    nccl_why = "ferry-comm was built without NCCL";
    return false;
#else
    // NCCL needs one GPU per rank: compare the GPUs' UUIDs first (a shared GPU makes
    // ncclCommInitRank fail, and a clear reason is worth more than NCCL's).
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    const int P = comm.size();
    detail::Context ctx(comm, "device allreduce/nccl set-up");
    std::vector<char> uuids(static_cast<std::size_t>(P) * 16);
    detail::check(ctx, MPI_Allgather(prop.uuid.bytes, 16, MPI_BYTE, uuids.data(), 16, MPI_BYTE, comm.mpi()),
                  "MPI_Allgather uuid");
    for (int i = 0; i < P; ++i)
      for (int j = i + 1; j < P; ++j)
        if (std::memcmp(&uuids[16 * i], &uuids[16 * j], 16) == 0) {
          nccl_why =
              "ranks " + std::to_string(i) + " and " + std::to_string(j) + " share a GPU; NCCL needs one GPU per rank";
          return false;
        }
    ncclUniqueId id{};
    int ok = 1;
    std::string err;
    if (comm.rank() == 0) {
      ncclResult_t r = ncclGetUniqueId(&id);
      if (r != ncclSuccess) ok = 0, err = std::string("ncclGetUniqueId: ") + ncclGetErrorString(r);
    }
    int ok_all = 0;
    detail::check(ctx, MPI_Allreduce(&ok, &ok_all, 1, MPI_INT, MPI_MIN, comm.mpi()), "MPI_Allreduce nccl");
    if (!ok_all) {
      nccl_why = err.empty() ? "rank 0 could not create an NCCL id" : err;
      return false;
    }
    detail::check(ctx, MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm.mpi()), "MPI_Bcast nccl id");
    ncclResult_t r = ncclCommInitRank(&nccl, P, id, comm.rank());
    ok = r == ncclSuccess;
    if (!ok) err = std::string("ncclCommInitRank: ") + ncclGetErrorString(r), nccl = nullptr;
    detail::check(ctx, MPI_Allreduce(&ok, &ok_all, 1, MPI_INT, MPI_MIN, comm.mpi()), "MPI_Allreduce nccl");
    if (!ok_all) {
      if (nccl) ncclCommDestroy(nccl), nccl = nullptr;
      nccl_why = err.empty() ? "ncclCommInitRank failed on another rank" : err;
      return false;
    }
    nccl_state = Nccl::up;
    nccl_why.clear();
    return true;
#endif
  }

  DeviceAllreduceStats uncompressed(float* data, std::size_t n, Transport t) {
    DeviceAllreduceStats st;
    const bool want_nccl = t != Transport::mpi;
    if (want_nccl && setup_nccl()) {
#ifdef FERRY_COMM_HAVE_NCCL
      ncclResult_t r = ncclAllReduce(data, data, n, ncclFloat32, ncclSum, nccl, stream);
      if (r != ncclSuccess)
        throw CommError(CommError::Kind::mpi,
                        std::string("ferry-comm device: ncclAllReduce: ") + ncclGetErrorString(r));
      sync();
      st.path = "nccl";
      st.bytes_sent = 0;  // NCCL's own traffic is not counted here
      return st;
#endif
    }
    if (t == Transport::nccl)
      throw UsageError("ferry-comm device allreduce: transport nccl requested but unavailable: " + nccl_why);
    auto* h = reinterpret_cast<float*>(host_a.get(n * 4));
    check(cudaMemcpyAsync(h, data, n * 4, cudaMemcpyDeviceToHost, stream), "stage to host");
    sync();
    AllreduceStats hs = ferry::comm::allreduce(comm, h, h, n, DType::f32, ReduceOp::sum);
    check(cudaMemcpyAsync(data, h, n * 4, cudaMemcpyHostToDevice, stream), "stage to device");
    sync();
    st.path = "mpi-staged";
    st.bytes_sent = hs.bytes_sent;
    return st;
  }

  DeviceAllreduceStats host_codec(float* data, std::size_t n, const CodecSpec& spec, float* residual) {
    auto* h = reinterpret_cast<float*>(host_a.get(n * 4));
    float* hr = residual ? reinterpret_cast<float*>(host_b.get(n * 4)) : nullptr;
    check(cudaMemcpyAsync(h, data, n * 4, cudaMemcpyDeviceToHost, stream), "stage to host");
    if (hr) check(cudaMemcpyAsync(hr, residual, n * 4, cudaMemcpyDeviceToHost, stream), "stage residual");
    sync();
    AllreduceOptions o;
    o.codec = &spec;
    if (hr) o.residual = {hr, n};
    AllreduceStats hs = ferry::comm::allreduce(comm, h, h, n, DType::f32, ReduceOp::sum, o);
    check(cudaMemcpyAsync(data, h, n * 4, cudaMemcpyHostToDevice, stream), "stage to device");
    if (hr) check(cudaMemcpyAsync(residual, hr, n * 4, cudaMemcpyHostToDevice, stream), "stage residual");
    sync();
    DeviceAllreduceStats st;
    st.path = "host-codec";
    st.bytes_sent = hs.bytes_sent;
    st.end_to_end_bound = hs.end_to_end_bound;
    return st;
  }

  // The compressed path with the GPU codecs (int8 or eb), see device.hpp.
  DeviceAllreduceStats gpu_codec(float* data, std::size_t n, const CodecSpec& spec, float* residual) {
    const bool eb = spec.kind == CodecSpec::Kind::eb;
    const std::size_t block = spec.block ? spec.block : (eb ? 128 : 64);
    const int P = comm.size(), me = comm.rank();
    DeviceAllreduceStats st;
    st.path = eb ? "gpu-eb" : "gpu-int8";
    // Parts aligned to whole codec blocks (and 16 bytes when data is) so the fast kernels apply.
    const std::size_t unit = block * 4;
    const std::size_t per = ((n + P - 1) / P + unit - 1) / unit * unit;
    auto part = [&](int j) {
      const std::size_t b = std::min(n, per * static_cast<std::size_t>(j));
      return std::pair<std::size_t, std::size_t>{b, std::min(n, b + per) - b};
    };
    auto max_bytes = [&](std::size_t len) { return eb ? eb_max_bytes(len, block) : intq8_max_bytes(len, block); };
    double bound = 0;  // eb: per compression
    if (eb) {
      double scale = 0;
      if (!(spec.abs > 0)) {
        double local = max_finite_abs(data, n, ws, stream);
        ferry::comm::allreduce(comm, &local, &scale, 1, DType::f64, ReduceOp::max);
      }
      const double total = spec.abs > 0 ? spec.abs : spec.rel * scale;
      st.end_to_end_bound = total;
      bound = total / P;  // P-1 contributions to each part, plus the owner's recompression
      if (!(bound > 0)) bound = std::numeric_limits<float>::min();
    }
    auto compress = [&](float* x, float* r, std::size_t len, std::byte* out) -> std::size_t {
      if (eb) return eb_compress(x, len, bound, 0.0, block, out, max_bytes(len), ws, stream);
      return intq8_compress(x, r, len, block, out, max_bytes(len), ws, stream, /*update_x=*/false);
    };
    auto decompress = [&](const std::byte* in, std::size_t bytes, float* y, std::size_t len) {
      if (eb) eb_decompress(in, bytes, y, len, ws, stream);
      else intq8_decompress(in, bytes, y, len, block, ws, stream);
    };
    // Step 1: compress the parts others own; exchange them. The exchange runs on the host
    // collectives' transport: nonblocking requests driven with the communicator's deadline, so a
    // silent peer is a CommError(timeout) naming it, not a hang.
    detail::Context ctx(comm, eb ? "device allreduce/gpu-eb" : "device allreduce/gpu-int8");
    auto aligned16 = [](std::size_t v) { return (v + 15) & ~std::size_t{15}; };
    std::vector<std::size_t> cap_off(static_cast<std::size_t>(P) + 1, 0);  // per part, worst case
    for (int j = 0; j < P; ++j) cap_off[j + 1] = cap_off[j] + aligned16(max_bytes(part(j).second));
    const auto [mb, mlen] = part(me);
    const std::size_t my_cap = aligned16(max_bytes(mlen));
    std::byte* dsend = dstreams.get(cap_off[P]);
    std::byte* hsend = host_a.get(cap_off[P]);
    std::vector<std::size_t> sbytes(static_cast<std::size_t>(P), 0);
    for (int j = 0; j < P; ++j) {
      auto [b, len] = part(j);
      if (j == me) {
        if (residual) absorb_residual(data + b, residual + b, len, stream);  // own part stays exact
        continue;
      }
      sbytes[j] = compress(data + b, residual ? residual + b : nullptr, len, dsend + cap_off[j]);
      check(cudaMemcpyAsync(hsend + cap_off[j], dsend + cap_off[j], sbytes[j], cudaMemcpyDeviceToHost, stream),
            "stage part");
    }
    sync();
    std::byte* hrecv = host_b.get(my_cap * static_cast<std::size_t>(P));  // slot j: from rank j
    exchange(
        ctx,
        [&](int peer) {
          return std::pair{hsend + cap_off[peer], sbytes[peer]};
        },
        [&](int peer) {
          return std::pair{hrecv + my_cap * peer, my_cap};
        },
        detail::tag_user + 1, st);
    // Owner: sum the others' contributions onto its exact part (rank order: deterministic).
    std::byte* drv = drecv.get(my_cap * static_cast<std::size_t>(P));
    check(cudaMemcpyAsync(drv, hrecv, my_cap * P, cudaMemcpyHostToDevice, stream), "stage parts in");
    auto* tmp = reinterpret_cast<float*>(dtmp.get(std::max<std::size_t>(mlen, 1) * 4));
    for (int j = 0; j < P; ++j) {
      if (j == me) continue;
      decompress(drv + my_cap * j, received_[j], tmp, mlen);
      add_into(data + mb, tmp, mlen, stream);
    }
    // Step 2: the owner compresses its sum once; everyone gathers and decodes the same bytes.
    const std::size_t mine = compress(data + mb, nullptr, mlen, dsend);
    check(cudaMemcpyAsync(hsend, dsend, mine, cudaMemcpyDeviceToHost, stream), "stage sum");
    sync();
    std::byte* hgather = host_b.get(cap_off[P]);  // slot j: part j's stream, at cap_off[j]
    exchange(
        ctx,
        [&](int) {
          return std::pair{hsend, mine};
        },
        [&](int peer) {
          return std::pair{hgather + cap_off[peer], cap_off[peer + 1] - cap_off[peer]};
        },
        detail::tag_user + 2, st);
    received_[me] = mine;
    std::byte* dg = drecv.get(cap_off[P]);
    check(cudaMemcpyAsync(dg + cap_off[me], dsend, mine, cudaMemcpyDeviceToDevice, stream), "own sum");
    for (int j = 0; j < P; ++j)
      if (j != me)
        check(cudaMemcpyAsync(dg + cap_off[j], hgather + cap_off[j], received_[j], cudaMemcpyHostToDevice, stream),
              "stage sums in");
    for (int j = 0; j < P; ++j) {
      auto [b, len] = part(j);
      decompress(dg + cap_off[j], received_[j], data + b, len);
    }
    sync();
    return st;
  }
};

DeviceComm::DeviceComm(Communicator& comm, cudaStream_t stream) : impl_(std::make_unique<Impl>(comm, stream)) {}
DeviceComm::~DeviceComm() = default;

bool DeviceComm::nccl_available() { return impl_->setup_nccl(); }
const std::string& DeviceComm::nccl_reason() const { return impl_->nccl_why; }

DeviceAllreduceStats DeviceComm::allreduce(float* data, std::size_t n, const DeviceAllreduceOptions& o) {
  // Local argument errors are raised before any communication; they are the caller's on this
  // rank (as with the host collectives' UsageError, the other ranks then wait for their deadline).
  if (n > 0 && data == nullptr) throw UsageError("ferry-comm device allreduce: data is null");
  const bool lossy = o.codec && o.codec->lossy();
  if (o.residual && !lossy) throw UsageError("ferry-comm device allreduce: a residual needs a lossy codec");
  if (n > 0) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, data) != cudaSuccess ||
        (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)) {
      cudaGetLastError();
      throw UsageError(
          "ferry-comm device allreduce: data is not device memory (use ferry::comm::allreduce for host buffers)");
    }
  }
  if (!lossy) return impl_->uncompressed(data, n, o.transport);
  if (impl_->comm.size() == 1) {
    DeviceAllreduceStats st;
    st.path = "single-rank";
    return st;
  }
  const CodecSpec& spec = *o.codec;
  const bool gpu_int8 = spec.kind == CodecSpec::Kind::intq && spec.bits == 8;
  const bool gpu_eb = spec.kind == CodecSpec::Kind::eb && spec.zstd_level == 0 && o.residual == nullptr;
  if ((gpu_int8 || gpu_eb) && !o.host_codec) return impl_->gpu_codec(data, n, spec, o.residual);
  return impl_->host_codec(data, n, spec, o.residual);
}

}  // namespace ferry::comm::cuda
