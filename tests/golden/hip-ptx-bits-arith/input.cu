// Inline PTX bit manipulation and arithmetic: bfe/bfi become Ferry's exact PTX helpers
// (ferry/compat/ptx.h), the rest HIP's builtins (FRY1311).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned bfe(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ int sbfe(int x, int pos) {
  int r;
  asm("bfe.s32 %0, %1, %2, 8;" : "=r"(r) : "r"(x), "r"(pos));
  return r;
}

__device__ __forceinline__ unsigned bfi(unsigned x, unsigned y, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ unsigned perm(unsigned a, unsigned b, unsigned s) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
  return r;
}

__device__ __forceinline__ unsigned bits(unsigned v, unsigned long long w) {
  unsigned a, b, c, d;
  asm("brev.b32 %0, %1;" : "=r"(a) : "r"(v));
  asm("popc.b32 %0, %1;" : "=r"(b) : "r"(v));
  asm("clz.b32 %0, %1;" : "=r"(c) : "r"(v));
  asm("popc.b64 %0, %1;" : "=r"(d) : "l"(w));
  return a + b + c + d;
}

__device__ __forceinline__ unsigned hi(unsigned a, unsigned b) {
  unsigned r;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ float fma_rn(float a, float b, float c) {
  float d;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));
  return d;
}

__device__ __forceinline__ unsigned short to_half_bits(float f) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}

__global__ void kernel(unsigned* out, float* f, unsigned short* h) {
  unsigned x = threadIdx.x * 2654435761u;
  out[threadIdx.x] = bfe(x, 4, 8) + sbfe((int)x, 3) + bfi(x, 7u, 8, 4) + perm(x, ~x, 0x3210) + bits(x, x) + hi(x, x);
  f[threadIdx.x] = fma_rn(f[threadIdx.x], 2.0f, 1.0f);
  h[threadIdx.x] = to_half_bits(f[threadIdx.x]);
}
