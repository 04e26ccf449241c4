// wave64 CPU runtime: <thrust/copy.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <thrust/copy.h> (Thrust) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
