// wave64 CPU runtime: <thrust/functional.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <thrust/functional.h> (Thrust) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
