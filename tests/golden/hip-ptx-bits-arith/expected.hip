// Inline PTX bit manipulation and arithmetic: bfe/bfi become Ferry's exact PTX helpers
// (ferry/compat/ptx.h), the rest HIP's builtins (FRY1311).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "ferry/compat/ptx.h"

__device__ __forceinline__ unsigned bfe(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  r = ferry_ptx_bfe_u32(x, pos, len);
  return r;
}

__device__ __forceinline__ int sbfe(int x, int pos) {
  int r;
  r = ferry_ptx_bfe_s32(x, pos, 8);
  return r;
}

__device__ __forceinline__ unsigned bfi(unsigned x, unsigned y, unsigned pos, unsigned len) {
  unsigned r;
  r = ferry_ptx_bfi_b32(x, y, pos, len);
  return r;
}

__device__ __forceinline__ unsigned perm(unsigned a, unsigned b, unsigned s) {
  unsigned r;
  r = __byte_perm(a, b, s);
  return r;
}

__device__ __forceinline__ unsigned bits(unsigned v, unsigned long long w) {
  unsigned a, b, c, d;
  a = __brev(v);
  b = __popc(v);
  c = __clz(v);
  d = __popcll(w);
  return a + b + c + d;
}

__device__ __forceinline__ unsigned hi(unsigned a, unsigned b) {
  unsigned r;
  r = __umulhi(a, b);
  return r;
}

__device__ __forceinline__ float fma_rn(float a, float b, float c) {
  float d;
  d = __fmaf_rn(a, b, c);
  return d;
}

__device__ __forceinline__ unsigned short to_half_bits(float f) {
  unsigned short h;
  h = __half_as_ushort(__float2half_rn(f));
  return h;
}

__global__ void kernel(unsigned* out, float* f, unsigned short* h) {
  unsigned x = threadIdx.x * 2654435761u;
  out[threadIdx.x] = bfe(x, 4, 8) + sbfe((int)x, 3) + bfi(x, 7u, 8, 4) + perm(x, ~x, 0x3210) + bits(x, x) + hi(x, x);
  f[threadIdx.x] = fma_rn(f[threadIdx.x], 2.0f, 1.0f);
  h[threadIdx.x] = to_half_bits(f[threadIdx.x]);
}
