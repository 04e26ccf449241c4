// Helpers of the device collectives (include/ferry/comm/cuda/codecs.hpp): the largest finite |x|
// (also the eb codec's relative bound), acc += x, and error-feedback absorption.
#include <cstring>

#include "common.cuh"

namespace ferry::comm::cuda {
namespace detail {
namespace {

__global__ void max_finite_abs_kernel(const float* x, std::size_t n, unsigned* out) {
  float m = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float a = fabsf(x[i]);
    if (finite(a) && a > m) m = a;
  }
  m = warp_max(m);
  if ((threadIdx.x & 31) == 0) atomicMax(out, __float_as_uint(m));  // non-negative floats order as uints
}

__global__ void max_finite_abs4(const float* x, std::size_t n, unsigned* out) {
  __shared__ float part[8];
  float m = 0.0f;
  const std::size_t n4 = n / 4, stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t j = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < n4; j += stride) {
    const float4 a = reinterpret_cast<const float4*>(x)[j];
    const float v[4] = {fabsf(a.x), fabsf(a.y), fabsf(a.z), fabsf(a.w)};
    for (float e : v)
      if (finite(e) && e > m) m = e;
  }
  if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) {
    const float a = fabsf(x[4 * n4 + threadIdx.x]);
    if (finite(a) && a > m) m = a;
  }
  m = warp_max(m);  // then one atomic per CTA: same-address atomics serialize
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    m = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.0f;
    m = warp_max(m);
    if (threadIdx.x == 0) atomicMax(out, __float_as_uint(m));
  }
}

__global__ void add_into_kernel(float* acc, const float* x, std::size_t n) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    acc[i] = __fadd_rn(acc[i], x[i]);
}
__global__ void absorb_kernel(float* x, float* r, std::size_t n) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    x[i] = ef_input(x, r, i);
    r[i] = 0.0f;
  }
}
unsigned grid_stride_blocks(std::size_t n) { return grid_capped((n + 255) / 256, 4096); }

}  // namespace

void queue_max_finite_abs(const float* x, std::size_t n, unsigned* m, cudaStream_t s) {
  check(cudaMemsetAsync(m, 0, 4, s), "max memset");
  if (n == 0) return;
  if (aligned(x, 16)) max_finite_abs4<<<grid_capped((n / 4 + 255) / 256, 2048), 256, 0, s>>>(x, n, m);
  else max_finite_abs_kernel<<<1024, 256, 0, s>>>(x, n, m);
  check(cudaGetLastError(), "max_finite_abs");
}

}  // namespace detail

float max_finite_abs(const float* x, std::size_t n, Workspace& ws, cudaStream_t s) {
  if (n == 0) return 0.0f;
  auto* m = static_cast<unsigned*>(ws.get(Slot::flag, 8));
  detail::queue_max_finite_abs(x, n, m, s);
  unsigned mb = 0;
  check(cudaMemcpyAsync(&mb, m, 4, cudaMemcpyDeviceToHost, s), "max copy");
  check(cudaStreamSynchronize(s), "max sync");
  float mf;
  std::memcpy(&mf, &mb, 4);
  return mf;
}

void add_into(float* acc, const float* x, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  detail::add_into_kernel<<<detail::grid_stride_blocks(n), 256, 0, s>>>(acc, x, n);
  check(cudaGetLastError(), "add_into");
}

void absorb_residual(float* x, float* r, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  detail::absorb_kernel<<<detail::grid_stride_blocks(n), 256, 0, s>>>(x, r, n);
  check(cudaGetLastError(), "absorb_residual");
}

}  // namespace ferry::comm::cuda
