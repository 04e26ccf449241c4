// Namespaces named without `::` after them: using-directives, aliases, using-declarations.
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>

namespace cb = hipcub;
using hipcub::BlockReduce;

__global__ void block_sum(const int* in, int* out) {
  using Reduce = BlockReduce<int, 128>;
  __shared__ typename Reduce::TempStorage tmp;
  const int s = Reduce(tmp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = s;
}

void* scratch(size_t bytes) {
  static cb::CachingDeviceAllocator alloc;
  void* p = nullptr;
  if (alloc.DeviceAllocate(&p, bytes) != hipSuccess) return nullptr;
  return p;
}
