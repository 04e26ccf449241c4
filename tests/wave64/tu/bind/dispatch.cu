// Kernels launched from macros: a literal block of whole wavefronts can be checked, a block size
// from a macro parameter cannot.
#define WARP_SIZE 32

__device__ float warp_max(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}

template <int NT>
__global__ void row_max(const float* x, float* y) {
  float v = warp_max(x[blockIdx.x * NT + threadIdx.x]);
  if (threadIdx.x % WARP_SIZE == 0) y[blockIdx.x * (NT / WARP_SIZE) + threadIdx.x / WARP_SIZE] = v;
}

#define LAUNCH_ROW_MAX(K) row_max<(K)><<<rows, (K)>>>(x, y);
#define DISPATCH(K)          \
  switch (K) {               \
    case 32: LAUNCH_ROW_MAX(32) break; \
    case 256: LAUNCH_ROW_MAX(256) break; \
  }

void run_rows(const float* x, float* y, int rows, int k) { DISPATCH(k) }
