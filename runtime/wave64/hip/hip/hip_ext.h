// wave64 CPU runtime: <hip/hip_ext.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hip/hip_ext.h> (HIP extensions) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
