// wave64 CPU runtime: <hip/library_types.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hip/library_types.h> (library data types) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
