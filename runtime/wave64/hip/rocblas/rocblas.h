// wave64 CPU runtime: <rocblas/rocblas.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <rocblas/rocblas.h> (rocBLAS) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
