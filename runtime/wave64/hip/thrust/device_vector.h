// wave64 CPU runtime: <thrust/device_vector.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <thrust/device_vector.h> (Thrust) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
