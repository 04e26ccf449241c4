// wave64 CPU runtime: <cublas.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cublas.h> (cuBLAS) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
