// wave64 CPU runtime: <hip/hip_cooperative_groups.h> is not available on the CPU runtime.
#error "wave64 CPU runtime: <hip/hip_cooperative_groups.h> (cooperative groups) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
