// rocPRIM device-wide algorithms (written for this test): reduce with and without an initial
// value, scans, radix sorts, debug_synchronous.
#include <cuda/std/functional> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cub/cub.cuh>

cudaError_t run(int* in, int* out, unsigned int* keys, float* values, size_t n, cudaStream_t stream) {
  void* temp = nullptr;
  size_t bytes = 0;
  const auto sum_op = cuda::std::plus /* ferry-hip: rocprim::plus */<int>{};
  cudaError_t e = cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  e = cub::DeviceReduce::Max(temp, bytes, in, out, n, stream);
  e = cub::DeviceReduce::Reduce(temp, bytes, in, out, n, cuda::std::plus /* ferry-hip: rocprim::plus */<int>(), 100, stream);
  e = cub::DeviceScan::InclusiveScan(temp, bytes, in, out, cuda::std::plus /* ferry-hip: rocprim::plus */<int>(), n, stream);
  e = cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, cuda::std::plus /* ferry-hip: rocprim::plus */<int>(), 0, n, stream);
  e = cub::DeviceRadixSort::SortKeys(temp, bytes, keys, keys + n, n, 0, 32, stream);
  e = cub::DeviceRadixSort::SortPairs(temp, bytes, keys, keys + n, values, values + n, n);
  return e;
}

int main() { return run(nullptr, nullptr, nullptr, nullptr, 0, 0) == cudaSuccess ? 0 : 1; }
