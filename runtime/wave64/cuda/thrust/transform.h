// wave64 CPU runtime: <thrust/transform.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <thrust/transform.h> (Thrust) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
