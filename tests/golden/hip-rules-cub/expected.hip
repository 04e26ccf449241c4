// Block-wide sum with CUB (namespace-qualified names map to hipcub::).
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hipcub/hipcub.hpp>

template <int kThreads>
__global__ void block_sum(const float* in, float* out) {
  using BlockReduce = hipcub::BlockReduce<float, kThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  float v = in[blockIdx.x * kThreads + threadIdx.x];
  float total = BlockReduce(temp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

void device_sum(const float* d_in, float* d_out, int n, void* d_tmp, size_t tmp_bytes) {
  hipcub::DeviceReduce::Sum(d_tmp, tmp_bytes, d_in, d_out, n);
}
