// wave64 CPU runtime: <cooperative_groups/reduce.h> is not available on the CPU runtime.
#error "wave64 CPU runtime: <cooperative_groups/reduce.h> (cooperative groups) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
