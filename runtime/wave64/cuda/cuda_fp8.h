// wave64 CPU runtime: <cuda_fp8.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cuda_fp8.h> (fp8 types) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
