// rocPRIM block primitives (written for this test): load, reduce with and without storage,
// inclusive and exclusive scans, store, an algorithm enumerator.
#include <hip/hip_runtime.h>
#include <rocprim/block/block_load.hpp>
#include <rocprim/block/block_reduce.hpp>
#include <rocprim/block/block_scan.hpp>
#include <rocprim/block/block_store.hpp>

template <unsigned int BlockSize, unsigned int Items>
__global__ void sum_blocks(const int* in, int* out, int* scanned, unsigned int n) {
  using block_load = rocprim::block_load<int, BlockSize, Items, rocprim::block_load_method::block_load_direct>;
  using block_reduce = rocprim::block_reduce<int, BlockSize>;
  using block_scan = rocprim::block_scan<int, BlockSize>;
  using block_store = rocprim::block_store<int, BlockSize, Items>;
  __shared__ typename block_scan::storage_type scan_storage;

  int items[Items]{};
  const unsigned int offset = blockIdx.x * BlockSize * Items;
  block_load{}.load(in + offset, items, n - offset, 0);

  int sum = 0;
  block_reduce{}.reduce(items, sum, rocprim::plus<int>());
  int largest = 0;
  block_reduce().reduce(items[0], largest, rocprim::maximum<int>());
  if (threadIdx.x == 0) out[2 * blockIdx.x] = sum, out[2 * blockIdx.x + 1] = largest;

  int prefix = 0;
  block_scan{}.inclusive_scan(items[0], prefix, scan_storage);
  __syncthreads();
  block_scan{}.exclusive_scan(items, items, 0, scan_storage, rocprim::plus<int>());
  block_store{}.store(scanned + offset, items, n - offset);
  (void)prefix;
}

int main() {
  int* d = nullptr;
  if (hipMalloc(&d, 1024 * sizeof(int)) != hipSuccess) return 1;
  sum_blocks<128, 2><<<1, 128>>>(d, d + 256, d + 512, 256);
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
