// wave64 CPU runtime: <hipfft.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hipfft.h> (hipFFT) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
