// wave64 CPU runtime: <hip/hip_gl_interop.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hip/hip_gl_interop.h> (OpenGL interop) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
