// rocPRIM block primitives (written for this test): load, reduce with and without storage,
// inclusive and exclusive scans, store, an algorithm enumerator.
#include <cuda/functional> /* ferry-hip: (none) */
#include <cuda/std/functional> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

template <unsigned int BlockSize, unsigned int Items>
__global__ void sum_blocks(const int* in, int* out, int* scanned, unsigned int n) {
  using block_load = cub::BlockLoad<int, BlockSize, Items, cub::BLOCK_LOAD_DIRECT>;
  using block_reduce = cub::BlockReduce<int, BlockSize>;
  using block_scan = cub::BlockScan<int, BlockSize>;
  using block_store = cub::BlockStore<int, BlockSize, Items>;
  __shared__ typename block_scan::TempStorage scan_storage;

  int items[Items]{};
  const unsigned int offset = blockIdx.x * BlockSize * Items;
  block_load{}.Load(in + offset, items, n - offset, 0);

  int sum = 0;
  sum = block_reduce{}.Reduce(items, cuda::std::plus /* ferry-hip: rocprim::plus */<int>());
  int largest = 0;
  largest = block_reduce().Reduce(items[0], cuda::maximum /* ferry-hip: rocprim::maximum */<int>());
  if (threadIdx.x == 0) out[2 * blockIdx.x] = sum, out[2 * blockIdx.x + 1] = largest;

  int prefix = 0;
  block_scan(scan_storage).InclusiveScan(items[0], prefix, cuda::std::plus /* ferry-hip: rocprim::plus */<>());
  __syncthreads();
  block_scan(scan_storage).ExclusiveScan(items, items, 0, cuda::std::plus /* ferry-hip: rocprim::plus */<int>());
  block_store{}.Store(scanned + offset, items, n - offset);
  (void)prefix;
}

int main() {
  int* d = nullptr;
  if (cudaMalloc(&d, 1024 * sizeof(int)) != cudaSuccess) return 1;
  sum_blocks<128, 2><<<1, 128>>>(d, d + 256, d + 512, 256);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
