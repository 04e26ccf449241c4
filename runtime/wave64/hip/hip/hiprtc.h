// wave64 CPU runtime: <hip/hiprtc.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hip/hiprtc.h> (runtime compilation) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
