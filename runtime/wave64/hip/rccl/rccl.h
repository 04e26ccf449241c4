// wave64 CPU runtime: <rccl/rccl.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <rccl/rccl.h> (RCCL) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
