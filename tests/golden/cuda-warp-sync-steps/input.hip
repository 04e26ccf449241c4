// The last steps of a shared-memory reduction written for wavefronts that run in lock step.
#include <hip/hip_runtime.h>

template <unsigned Width, typename T>
__global__ void block_sum(const T* in, T* out, unsigned n) {
  extern __shared__ T partial[];
  const unsigned tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + tid;
  partial[tid] = gid < n ? in[gid] : T(0);
  __syncthreads();
  // block-level steps: a barrier in each, nothing to add
  for (unsigned s = blockDim.x / 2; s > Width; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  // warp-level steps: no barrier (lock step on AMD)
  for (unsigned s = Width; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] += partial[tid + s];
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// The same steps as a lambda called once per step.
template <int I, typename F>
__device__ void unroll(F f) {
  f.template operator()<I>();
  if constexpr (I > 1) unroll<I / 2>(f);
}

__global__ void block_max(const int* in, int* out) {
  __shared__ int best[256];
  const unsigned tid = threadIdx.x;
  best[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  unroll<32>([&]<int I>() {
    if (tid < I) best[tid] = max(best[tid], best[tid + I]);
  });
  if (tid == 0) out[blockIdx.x] = best[0];
}

// Under a condition only some lanes may reach: reported, not changed.
__global__ void first_warp_sum(float* data) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = data[tid];
  __syncthreads();
  if (tid < 16) {
    for (unsigned k = 8; k > 0; k /= 2) {
      s[tid] += s[tid + k];
    }
  }
  if (tid == 0) data[0] = s[0];
}

// A loop that reads shared memory but writes only registers: nothing to add.
__global__ void dot_row(const float* a, float* out) {
  __shared__ float row[128];
  row[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k < 4; ++k) {
    acc += row[threadIdx.x + k];
  }
  out[threadIdx.x] = acc;
}
