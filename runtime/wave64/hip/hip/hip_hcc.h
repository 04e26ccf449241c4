// wave64 CPU runtime: <hip/hip_hcc.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hip/hip_hcc.h> (the HCC API) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
