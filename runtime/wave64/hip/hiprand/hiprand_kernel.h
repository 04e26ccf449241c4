// wave64 CPU runtime: <hiprand/hiprand_kernel.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hiprand/hiprand_kernel.h> (hipRAND) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
