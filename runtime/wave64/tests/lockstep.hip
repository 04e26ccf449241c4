// Warp-synchronous reductions in shared memory with no barrier between the steps: the driver puts
// a lock-step point after each step (src/wave64/transform.cpp), so the lanes of a wavefront finish
// one step before any starts the next, as the hardware runs them. Without it lane 0 reads s[16]
// before lane 16 has added s[48] into it (56 instead of 512 in How_to_optimize_in_GPU's reduce_v4).
#include <hip/hip_runtime.h>

#include "check.h"

constexpr int kBlock = 256;

// the pre-Volta form: unrolled steps through a volatile pointer, called under `if (tid < 32)`
__device__ void warp_reduce(volatile int* c, unsigned tid) {
  c[tid] += c[tid + 32];
  c[tid] += c[tid + 16];
  c[tid] += c[tid + 8];
  c[tid] += c[tid + 4];
  c[tid] += c[tid + 2];
  c[tid] += c[tid + 1];
}

template <int I, class F>
__device__ void static_down(F&& f) {
  if constexpr (I > 0) {
    f.template operator()<I>();
    static_down<I / 2>(f);
  }
}

// mode 0: volatile warp_reduce; 1: a loop of steps under `if`; 2: rocm-examples' static_for of
// generic-lambda steps (the tutorial's reduction v5)
__global__ void block_sum(const int* in, int* out, int mode) {
  __shared__ int s[kBlock];
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * kBlock + tid];
  __syncthreads();
  for (unsigned i = kBlock / 2; i > 32; i /= 2) {
    if (tid < i) s[tid] += s[tid + i];
    __syncthreads();
  }
  if (mode == 0) {
    if (tid < 32) warp_reduce(s, tid);
  } else if (mode == 1) {
    for (unsigned i = 32; i > 0; i /= 2) {
      if (tid < i) s[tid] = s[tid] + s[tid + i];
    }
  } else {
    static_down<32>([&]<int I>() {
      if (tid < I) s[tid] = s[tid] + s[tid + I];
    });
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int blocks = 8;
  int *in, *out;
  if (hipMallocManaged(&in, blocks * kBlock * sizeof(int)) != hipSuccess) return 2;
  if (hipMallocManaged(&out, blocks * sizeof(int)) != hipSuccess) return 2;
  for (int i = 0; i < blocks * kBlock; ++i) in[i] = i % 7 + 1;
  for (int mode = 0; mode < 3; ++mode) {
    hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(kBlock), 0, 0, in, out, mode);
    if (hipDeviceSynchronize() != hipSuccess) return 2;
    for (int b = 0; b < blocks; ++b) {
      int want = 0;
      for (int i = 0; i < kBlock; ++i) want += in[b * kBlock + i];
      CHECK_EQ(out[b], want, "mode %d block %d", mode, b);
    }
  }
  hipFree(in);
  hipFree(out);
  return finish("lockstep");
}
