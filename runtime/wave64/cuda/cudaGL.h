// wave64 CPU runtime: <cudaGL.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cudaGL.h> (OpenGL interop (driver API)) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
