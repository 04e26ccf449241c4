// nvcc accepts the `register` storage class with a warning; clang rejects it in C++17 (the
// default of clang 16, so of hipcc from ROCm 6). The keyword is dropped (FRY5202). Other
// nvcc-isms: CUDART_CB, __grid_constant__.
#include <hip/hip_runtime.h>

#define REG_HINT register  // inside a #define: left as written (not used below)

__global__ void dot(const float* a, const float* b, float* out, int n) {
  /* ferry-cuda: register  */float acc = 0.f;
  /* ferry-cuda: register  */int i;
  for (i = threadIdx.x; i < n; i += blockDim.x) acc += a[i] * b[i];
  atomicAdd(out, acc);
}

__device__ float scale(/* ferry-cuda: register  */const float x, /* ferry-cuda: register  */unsigned s) { return x * s; }

// CUDART_CB (the callbacks' calling convention, empty on Linux) does not exist in HIP: removed.
void /* ferry-cuda: CUDART_CB  */on_done(hipStream_t, hipError_t status, void* flag) { *static_cast<int*>(flag) = status; }
void /* ferry-cuda: CUDART_CB  */on_host(void* flag) { *static_cast<int*>(flag) = 1; }

// __grid_constant__ (CUDA 11.7) has no HIP equivalent; the parameter stays const.
struct Params {
  float scale;
  int n;
};
__global__ void apply(const /* ferry-cuda: __grid_constant__  */Params p, float* x) {
  if (threadIdx.x < p.n) x[threadIdx.x] *= p.scale;
  if (p.n < 0) __builtin_trap();  // -> __builtin_trap()
}

// "register" in a string and in this comment stay.
const char* kNote = "register keyword";
