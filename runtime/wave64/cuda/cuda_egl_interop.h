// wave64 CPU runtime: <cuda_egl_interop.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cuda_egl_interop.h> (EGL interop) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
