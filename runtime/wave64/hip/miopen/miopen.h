// wave64 CPU runtime: <miopen/miopen.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <miopen/miopen.h> (MIOpen) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
