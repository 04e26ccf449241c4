// HIP -> CUDA output of rocPRIM code (written for this test): the recorded rocPRIM functors and the
// added libcu++ headers come back as the HIP had them; the CUB calls become hipCUB's.
#include <cuda/functional> /* ferry-hip: (none) */
#include <cuda/std/functional> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cub/cub.cuh>

constexpr unsigned int block_size = 128;

__global__ void block_sum(const int* in, int* out) {
  using block_reduce = cub::BlockReduce<int, block_size>;
  __shared__ block_reduce::TempStorage storage;
  int value = in[blockIdx.x * block_size + threadIdx.x];
  int sum;
  sum = block_reduce(storage).Reduce(value, cuda::std::plus /* ferry-hip: rocprim::plus */<int>());
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

size_t device_max_bytes(const int* in, int* out, size_t n) {
  size_t bytes = 0;
  const auto op = cuda::maximum /* ferry-hip: rocprim::maximum */<int>{};
  cub::DeviceReduce::Reduce(nullptr, bytes, in, out, n, op, 0);
  return bytes;
}
