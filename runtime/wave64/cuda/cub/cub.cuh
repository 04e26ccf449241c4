// wave64 CPU runtime: <cub/cub.cuh> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <cub/cub.cuh> (CUB) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
