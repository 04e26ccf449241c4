// Inline PTX bit manipulation and arithmetic: bfe/bfi become Ferry's exact PTX helpers
// (ferry/compat/ptx.h), the rest HIP's builtins (FRY1311).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "ferry/compat/ptx.h"

__device__ __forceinline__ unsigned bfe(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  (r = ferry_ptx_bfe_u32(x, pos, len)) /* ferry-cuda: asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len)) */;
  return r;
}

__device__ __forceinline__ int sbfe(int x, int pos) {
  int r;
  (r = ferry_ptx_bfe_s32(x, pos, 8)) /* ferry-cuda: asm("bfe.s32 %0, %1, %2, 8;" : "=r"(r) : "r"(x), "r"(pos)) */;
  return r;
}

__device__ __forceinline__ unsigned bfi(unsigned x, unsigned y, unsigned pos, unsigned len) {
  unsigned r;
  (r = ferry_ptx_bfi_b32(x, y, pos, len)) /* ferry-cuda: asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(pos), "r"(len)) */;
  return r;
}

__device__ __forceinline__ unsigned perm(unsigned a, unsigned b, unsigned s) {
  unsigned r;
  (r = __byte_perm(a, b, s)) /* ferry-cuda: asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)) */;
  return r;
}

__device__ __forceinline__ unsigned bits(unsigned v, unsigned long long w) {
  unsigned a, b, c, d;
  (a = __brev(v)) /* ferry-cuda: asm("brev.b32 %0, %1;" : "=r"(a) : "r"(v)) */;
  (b = __popc(v)) /* ferry-cuda: asm("popc.b32 %0, %1;" : "=r"(b) : "r"(v)) */;
  (c = __clz(v)) /* ferry-cuda: asm("clz.b32 %0, %1;" : "=r"(c) : "r"(v)) */;
  (d = __popcll(w)) /* ferry-cuda: asm("popc.b64 %0, %1;" : "=r"(d) : "l"(w)) */;
  return a + b + c + d;
}

__device__ __forceinline__ unsigned hi(unsigned a, unsigned b) {
  unsigned r;
  (r = __umulhi(a, b)) /* ferry-cuda: asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)) */;
  return r;
}

__device__ __forceinline__ float fma_rn(float a, float b, float c) {
  float d;
  (d = __fmaf_rn(a, b, c)) /* ferry-cuda: asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c)) */;
  return d;
}

__device__ __forceinline__ unsigned short to_half_bits(float f) {
  unsigned short h;
  (h = __half_as_ushort(__float2half_rn(f))) /* ferry-cuda: asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)) */;
  return h;
}

__global__ void kernel(unsigned* out, float* f, unsigned short* h) {
  unsigned x = threadIdx.x * 2654435761u;
  out[threadIdx.x] = bfe(x, 4, 8) + sbfe((int)x, 3) + bfi(x, 7u, 8, 4) + perm(x, ~x, 0x3210) + bits(x, x) + hi(x, x);
  f[threadIdx.x] = fma_rn(f[threadIdx.x], 2.0f, 1.0f);
  h[threadIdx.x] = to_half_bits(f[threadIdx.x]);
}
