// wave64 CPU runtime: <curand.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <curand.h> (cuRAND) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
