// wave64 CPU runtime: <mma.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <mma.h> (warp matrix (WMMA)) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
