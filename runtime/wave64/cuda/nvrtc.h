// wave64 CPU runtime: <nvrtc.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <nvrtc.h> (NVRTC) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
