// Standard headers stay as they are in HIP -> CUDA: <cstdint> is not libcu++'s <cuda/std/cstdint>,
// although the CUDA -> HIP table maps that one to it.
#include <cuda_runtime.h>
#include <cstdint>
#include <limits>
#include <type_traits>

__global__ void fill(std::int64_t* out, std::int64_t n) {
  static_assert(std::is_integral<std::int64_t>::value, "int64");
  const std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = n - i;
}

std::int64_t host_limit() { return std::numeric_limits<std::int32_t>::max(); }
