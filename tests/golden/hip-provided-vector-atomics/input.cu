// Helpers CUDA lacks and HIP 5.x defines: vector compound operators in the style of
// cuda-samples' helper_math.h, and a float atomicMax built on atomicCAS. The ones HIP's headers
// make ambiguous or redefine are kept for CUDA builds only (FRY4103); the others stay as written.
#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned int uint;

inline __host__ __device__ float4 operator+(float4 a, float4 b) {  // a non-template: wins over HIP's
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
inline __host__ __device__ void operator+=(float4 &a, const float4 &b) {
  a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
// Scaling in place.
inline __host__ __device__ void operator*=(float4 &a, float4 b) {
  a.x *= b.x; a.y *= b.y; a.z *= b.z; a.w *= b.w;
}
inline __host__ __device__ void operator*=(float4 &a, float s) { a.x *= s; a.y *= s; a.z *= s; a.w *= s; }
inline __host__ __device__ void operator-=(uint2 &a, uint2 b) { a.x -= b.x; a.y -= b.y; }

__device__ float atomicMax(float *address, float val) {
  int *p = (int *)address;
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__device__ uint32_t atomicMin(uint32_t *address, uint32_t val);  // a declaration: left alone

template <typename T>
__device__ T atomicMax(T *address, T val, int);  // a template: left alone

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
// __CUDA_ARCH__ becomes __HIP_DEVICE_COMPILE__ (1): this branch is live on HIP's device pass.
__device__ double atomicAdd(double *address, double val) {
  unsigned long long *p = (unsigned long long *)address, old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif

#ifndef __HIP_PLATFORM_AMD__
__device__ float atomicMin(float *address, float val);  // already written per platform: left alone
__device__ float atomicMin(float *address, float val) { return atomicMax(address, -val); }
#endif

struct Acc {
  float4 sum;
  __device__ void operator+=(const float4 &v) { sum += v; }  // a member: left alone
};

__global__ void accumulate(const float4 *x, float4 *out, float *peak, uint2 *ctr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = x[i];
  v += x[0];
  v *= 0.5f;
  v *= x[0];
  Acc acc{v};
  acc += v;
  out[i] = acc.sum + v;
  atomicMax(peak, v.x);
  uint2 d = make_uint2(1, 1);
  ctr[i] -= d;
}
