// Python bindings of ferry-comm (module ferry_comm._ext), used by the PyTorch DDP hook.
// Buffers cross the boundary as (address, element count, dtype name): the binding never includes
// torch headers, so it does not depend on libtorch's C++ ABI and builds against any torch.
// Every blocking call releases the GIL; calls on one Communicator are serialized by a mutex so
// MPI needs only MPI_THREAD_SERIALIZED.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "ferry/comm/comm.hpp"
#ifdef FERRY_COMM_PY_CUDA
#include "ferry/comm/cuda/codecs.hpp"
#include "ferry/comm/cuda/device.hpp"
#endif

namespace py = pybind11;
namespace fc = ferry::comm;

namespace {

// MPI_Init_thread once per process; Finalize is registered from Python (atexit) so that it runs
// after torch.distributed is torn down.
py::tuple mpi_init() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
      throw std::runtime_error("ferry_comm: MPI_Init_thread failed");
    if (provided < MPI_THREAD_SERIALIZED)
      throw std::runtime_error("ferry_comm: MPI provides only thread level " + std::to_string(provided) +
                               ", need MPI_THREAD_SERIALIZED");
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return py::make_tuple(rank, size);
}

void mpi_finalize() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Finalize();
}

class PyCommunicator {
 public:
  explicit PyCommunicator(double timeout_s, bool check_args, std::string tuning) {
    fc::CommOptions o;
    if (timeout_s > 0) o.timeout = std::chrono::duration<double>(timeout_s);
    o.check_args = check_args;
    o.tuning = std::move(tuning);
    comm_ = std::make_unique<fc::Communicator>(MPI_COMM_WORLD, o);
  }
#ifdef FERRY_COMM_PY_CUDA
  ~PyCommunicator() {
    device_.reset();
    if (stream_) cudaStreamDestroy(stream_);  // may fail at interpreter exit: nothing to do then
  }
#endif
  int rank() const { return comm_->rank(); }
  int size() const { return comm_->size(); }

  // In-place sum allreduce of `count` elements at address `data`. codec: a CodecSpec string
  // ("none", "bf16", "int8", "eb:rel=1e-3", ...); algorithm: "" = chosen by size;
  // residual: address of `count` float32 error-feedback values (0 = no feedback).
  py::dict allreduce(std::uintptr_t data, std::size_t count, const std::string& dtype, const std::string& codec,
                     const std::string& algorithm, std::uintptr_t residual) {
    const fc::DType t = fc::parse_dtype(dtype);
    const fc::CodecSpec spec = fc::CodecSpec::parse(codec);
    fc::AllreduceOptions o;
    o.algorithm = algorithm;
    if (spec.lossy()) o.codec = &spec;
    if (residual != 0) {
      if (!spec.lossy()) throw fc::UsageError("ferry_comm: error feedback needs a lossy codec");
      o.residual = std::span<float>(reinterpret_cast<float*>(residual), count);
    }
    void* p = reinterpret_cast<void*>(data);
    fc::AllreduceStats st;
    {
      py::gil_scoped_release nogil;
      std::lock_guard lock(mutex_);
      st = fc::allreduce(get(), p, p, count, t, fc::ReduceOp::sum, o);
    }
    py::dict d;
    d["algorithm"] = std::string(st.algorithm);
    d["bytes_sent"] = st.bytes_sent;
    d["per_compression_bound"] = st.per_compression_bound;
    d["end_to_end_bound"] = st.end_to_end_bound;
    return d;
  }

#ifdef FERRY_COMM_PY_CUDA
  // In-place sum allreduce of `count` float32 at device address `data` (ferry::comm::cuda::
  // DeviceComm: NCCL, MPI staging or the GPU codecs). The caller has synchronized the stream that
  // produced the data; the call returns with the result in device memory (its own stream synced).
  // transport: "auto", "nccl" or "mpi"; residual: device address of count floats, or 0.
  py::dict allreduce_device(std::uintptr_t data, std::size_t count, const std::string& codec,
                            const std::string& transport, std::uintptr_t residual) {
    const fc::CodecSpec spec = fc::CodecSpec::parse(codec);
    ferry::comm::cuda::DeviceAllreduceOptions o;
    if (spec.lossy()) o.codec = &spec;
    o.residual = reinterpret_cast<float*>(residual);
    if (transport == "nccl") o.transport = ferry::comm::cuda::Transport::nccl;
    else if (transport == "mpi") o.transport = ferry::comm::cuda::Transport::mpi;
    else if (transport != "auto" && !transport.empty())
      throw fc::UsageError("ferry_comm: transport must be auto, nccl or mpi, not '" + transport + "'");
    ferry::comm::cuda::DeviceAllreduceStats st;
    {
      py::gil_scoped_release nogil;
      std::lock_guard lock(mutex_);
      if (!device_) {
        cudaStream_t s = nullptr;
        ferry::comm::cuda::check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
        stream_ = s;
        device_ = std::make_unique<ferry::comm::cuda::DeviceComm>(get(), stream_);
      }
      st = device_->allreduce(reinterpret_cast<float*>(data), count, o);
    }
    py::dict d;
    d["algorithm"] = st.path;
    d["bytes_sent"] = st.bytes_sent;
    d["end_to_end_bound"] = st.end_to_end_bound;
    return d;
  }
#endif

  py::bytes broadcast_bytes(const py::bytes& payload, int root) {
    std::string s = payload;
    std::uint64_t n = s.size();
    {
      py::gil_scoped_release nogil;
      std::lock_guard lock(mutex_);
      fc::broadcast(get(), &n, 1, fc::DType::u64, root);
      s.resize(n);
      fc::broadcast(get(), s.data(), n, fc::DType::u8, root);
    }
    return py::bytes(s);
  }

  void barrier() {
    py::gil_scoped_release nogil;
    std::lock_guard lock(mutex_);
    fc::barrier(get());
  }

  void close() {
    std::lock_guard lock(mutex_);
#ifdef FERRY_COMM_PY_CUDA
    device_.reset();
    if (stream_) cudaStreamDestroy(stream_), stream_ = nullptr;
#endif
    comm_.reset();
  }

 private:
  fc::Communicator& get() {
    if (!comm_) throw fc::UsageError("ferry_comm: communicator is closed");
    return *comm_;
  }
  std::unique_ptr<fc::Communicator> comm_;
#ifdef FERRY_COMM_PY_CUDA
  std::unique_ptr<ferry::comm::cuda::DeviceComm> device_;  // before comm_ goes: it refers to it
  cudaStream_t stream_ = nullptr;
#endif
  std::mutex mutex_;
};

// Compress and decompress n float32 at `data` in place through a codec (what one hop of a
// compressed allreduce does to a contribution); returns the compressed size in bytes.
std::size_t roundtrip(std::uintptr_t data, std::size_t n, const std::string& codec) {
  auto c = fc::make_codec(fc::CodecSpec::parse(codec));
  std::span<float> x(reinterpret_cast<float*>(data), n);
  std::vector<std::byte> buf(c->max_compressed_bytes(n));
  py::gil_scoped_release nogil;
  std::size_t bytes = c->compress(x, buf);
  c->decompress({buf.data(), bytes}, x);
  return bytes;
}

}  // namespace

PYBIND11_MODULE(_ext, m) {
  m.doc() = "ferry-comm: compressed MPI collectives (low-level binding; use the ferry_comm package)";
#ifdef FERRY_COMM_PY_CUDA
  m.attr("has_cuda") = true;
#else
  m.attr("has_cuda") = false;
#endif
  static py::exception<fc::CommError> comm_error(m, "CommError", PyExc_RuntimeError);
  static py::exception<fc::UsageError> usage_error(m, "UsageError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const fc::CommError& e) {
      comm_error(e.what());
    } catch (const fc::UsageError& e) {
      usage_error(e.what());
    }
  });
  m.def("mpi_init", &mpi_init, "MPI_Init_thread (SERIALIZED) if needed; returns (rank, size) of MPI_COMM_WORLD");
  m.def("mpi_finalize", &mpi_finalize);
  m.def("roundtrip", &roundtrip, py::arg("data"), py::arg("count"), py::arg("codec"));
  m.def("algorithm_table", &fc::algorithm_table);
  py::class_<PyCommunicator>(m, "Communicator")
      .def(py::init<double, bool, std::string>(), py::arg("timeout_s") = 0.0, py::arg("check_args") = true,
           py::arg("tuning") = "")
      .def_property_readonly("rank", &PyCommunicator::rank)
      .def_property_readonly("size", &PyCommunicator::size)
      .def("allreduce", &PyCommunicator::allreduce, py::arg("data"), py::arg("count"), py::arg("dtype"),
           py::arg("codec"), py::arg("algorithm") = "", py::arg("residual") = 0)
#ifdef FERRY_COMM_PY_CUDA
      .def("allreduce_device", &PyCommunicator::allreduce_device, py::arg("data"), py::arg("count"),
           py::arg("codec") = "none", py::arg("transport") = "auto", py::arg("residual") = 0)
#endif
      .def("broadcast_bytes", &PyCommunicator::broadcast_bytes, py::arg("payload"), py::arg("root") = 0)
      .def("barrier", &PyCommunicator::barrier)
      .def("close", &PyCommunicator::close);
}
