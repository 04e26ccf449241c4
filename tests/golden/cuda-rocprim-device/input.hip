// rocPRIM device-wide algorithms (written for this test): reduce with and without an initial
// value, scans, radix sorts, debug_synchronous.
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

hipError_t run(int* in, int* out, unsigned int* keys, float* values, size_t n, hipStream_t stream) {
  void* temp = nullptr;
  size_t bytes = 0;
  const auto sum_op = rocprim::plus<int>{};
  hipError_t e = rocprim::reduce(temp, bytes, in, out, n, sum_op);
  e = rocprim::reduce(temp, bytes, in, out, n, rocprim::maximum<int>(), stream, false);
  e = rocprim::reduce(temp, bytes, in, out, 100, n, rocprim::plus<int>(), stream);
  e = rocprim::inclusive_scan(temp, bytes, in, out, n, rocprim::plus<int>(), stream);
  e = rocprim::exclusive_scan(temp, bytes, in, out, 0, n, rocprim::plus<int>(), stream, true);
  e = rocprim::radix_sort_keys(temp, bytes, keys, keys + n, n, 0, 32, stream, false);
  e = rocprim::radix_sort_pairs(temp, bytes, keys, keys + n, values, values + n, n);
  return e;
}

int main() { return run(nullptr, nullptr, nullptr, nullptr, 0, 0) == hipSuccess ? 0 : 1; }
