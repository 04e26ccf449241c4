// wave64 CPU runtime: <hipblas/hipblas.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hipblas/hipblas.h> (hipBLAS) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
