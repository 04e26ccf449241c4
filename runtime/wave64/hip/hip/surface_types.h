// wave64 CPU runtime: <hip/surface_types.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hip/surface_types.h> (surfaces) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
