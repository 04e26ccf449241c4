// wave64 CPU runtime: <cublasLt.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cublasLt.h> (cuBLASLt) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
