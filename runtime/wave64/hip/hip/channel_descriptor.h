// wave64 CPU runtime: <hip/channel_descriptor.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hip/channel_descriptor.h> (textures) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
