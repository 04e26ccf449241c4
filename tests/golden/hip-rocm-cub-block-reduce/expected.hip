// CUB block and device primitives (hipCUB after migration): a block-wide sum with BlockReduce,
// a warp-wide max with WarpReduce, and an exclusive prefix sum with DeviceScan (two-phase temp
// storage query). Compiled against the real hipCUB headers (rocm.headers).
#include <hipcub/hipcub.hpp>
#include <hip/hip_runtime.h>
#include <cstdio>

template <int BLOCK>
__global__ void block_sum(const float* in, float* out, int n) {
  typedef hipcub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float sum = BlockReduce(temp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

struct MaxOp {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

__global__ void warp_max(const int* in, int* out) {
  typedef hipcub::WarpReduce<int> WarpReduce;
  __shared__ typename WarpReduce::TempStorage temp[4];
  int warp = threadIdx.x / 32;
  int m = WarpReduce(temp[warp]).Reduce(in[threadIdx.x], MaxOp());
  if (threadIdx.x % 32 == 0) out[warp] = m;
}

int scan(const int* d_in, int* d_out, int n, hipStream_t stream) {
  void* temp = nullptr;
  size_t bytes = 0;
  hipcub::DeviceScan::ExclusiveSum(temp, bytes, d_in, d_out, n, stream);
  if (hipMalloc(&temp, bytes) != hipSuccess) return 1;
  hipcub::DeviceScan::ExclusiveSum(temp, bytes, d_in, d_out, n, stream);
  hipFree(temp);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

void launch(const float* in, float* out, int n) {
  block_sum<256><<<(n + 255) / 256, 256>>>(in, out, n);
}
