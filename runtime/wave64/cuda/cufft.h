// wave64 CPU runtime: <cufft.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cufft.h> (cuFFT) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
