// wave64 CPU runtime: <cuda_pipeline.h> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cuda_pipeline.h> (async copies) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
