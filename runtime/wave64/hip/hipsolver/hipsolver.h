// wave64 CPU runtime: <hipsolver/hipsolver.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hipsolver/hipsolver.h> (hipSOLVER) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
