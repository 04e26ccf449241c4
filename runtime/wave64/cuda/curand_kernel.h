// wave64 CPU runtime: <curand_kernel.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <curand_kernel.h> (cuRAND) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
