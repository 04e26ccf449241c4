// HIP code that defines names HIP's headers also know: an overload of HIP's unsynchronised
// shuffle for float2 and the project's own HIP_DYNAMIC_SHARED macro. On the way to CUDA the
// definitions stay as written (a call template must not turn their parameters into arguments),
// uses of the project's macro keep it, and the shuffles of floats become CUDA's synchronised
// form. (A call of the float2 overload would need the argument's type to tell it from HIP's:
// docs/targets.md lists that limit.)
#include <cuda_runtime.h>

#define HIP_DYNAMIC_SHARED(T, name) extern __shared__ T name[]

__device__ __forceinline__ float2 __shfl_xor(float2 v, int lane_mask, int width = 32) {
  return make_float2(__shfl_xor_sync(0xffffffff, v.x, lane_mask, width), __shfl_xor_sync(0xffffffff, v.y, lane_mask, width));
}

__global__ void row_sum(const float* x, float* out, int cols) {
  HIP_DYNAMIC_SHARED(float, partial);
  float2 s = make_float2(0.f, 0.f);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    s.x += x[blockIdx.x * cols + c];
    s.y += x[blockIdx.x * cols + c] * x[blockIdx.x * cols + c];
  }
  for (int off = warpSize / 2; off > 0; off /= 2) {
    s.x += __shfl_xor_sync(0xffffffff, s.x, off, warpSize);
    s.y += __shfl_xor_sync(0xffffffff, s.y, off, warpSize);
  }
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = s.x + s.y;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) t += partial[w];
    out[blockIdx.x] = t;
  }
}

void launch(const float* x, float* out, int rows, int cols, cudaStream_t s) {
  row_sum<<<dim3(rows), dim3(256), 8 * sizeof(float), s>>>(x, out, cols);
}
