// wave64 CPU runtime: <hipsparse/hipsparse.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hipsparse/hipsparse.h> (hipSPARSE) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
