// wave64 CPU runtime: <rocprim/rocprim.hpp> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <rocprim/rocprim.hpp> (rocPRIM) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
