// wave64 CPU runtime: <hipcub/hipcub.hpp> is not available on the CPU runtime.
#error \
    "wave64 CPU runtime: <hipcub/hipcub.hpp> (hipCUB) is not supported; the runtime runs kernels written against the HIP/CUDA runtime API only"
