#!/usr/bin/env python3
"""Ferry's compat headers (ferry/compat/*.h), as `ferry migrate --to hip --hip-version 5.2` writes them.

1. A CUDA file that needs every compat header is migrated; the headers Ferry writes into the output
   tree are the ones tested.
2. Every entry of rules/compat/hip/compat.tsv is used by a kernel below, and each kernel is compiled
   for gfx906 with the real hipcc.
3. Numbers, on the host (no GPU here): the SIMD intrinsics against a lane-by-lane reference written
   here from the CUDA Math API's definitions, and __dp4a/__dp2a_lo/__dp2a_hi (signed and unsigned)
   against a reference from the same; the bfloat16 functions against CUDA's own cuda_bf16.h
   compiled by nvcc (its host paths), bit for bit, when nvcc is installed; hipsparseGetErrorName for
   every status; __hmax/__hmin/__hmax_nan/__hmin_nan on __half and their __half2 forms (host paths)
   against a reference written here from the CUDA Math API's rules (NaN, signed zero) and against
   CUDA's cuda_fp16.h (nvcc) bit for bit when nvcc is installed; every HIP_* math constant
   against CUDA's math_constants.h value (read from the CUDA toolkit when installed); the memory
   location types against CUDA's values; min/max on unsigned, 64-bit and mixed arguments and
   umin/umax/llmin/llmax/ullmin/ullmax against CUDA's results; atomicAdd on __half and __half2,
   run on Ferry's CPU wave64 runtime (`ferry wave64 run`, 64-lane wavefronts, blocks on parallel OS
   threads): every thread of every block adds into the same halves, compared with a host reference,
   and every old value a counter returns is seen exactly once; the directed-rounding intrinsics
   (__fadd_rd ... __dsqrt_rz) against an exact rational oracle (Python fractions), bit for bit;
   ptx.h's bfe/bfi against a PTX-ISA reference and atomic64.h's long long atomicMin/atomicMax
   from 2048 threads on the wave64 runtime; the tile shuffles of vector and struct values
   (tile_shfl.h) on the wave64 runtime, every lane
   against the source lane CUDA's thread_block_tile::shfl* reads; device_prop.h's attribute reads
   linked against the real HIP runtime (no device here: 0, reported once).
Skips (77) without hipcc."""
import bisect
import functools
import math
import os
import random
import re
import struct
from fractions import Fraction
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
ROOT = Path(os.environ.get("FERRY_ROOT", Path(__file__).resolve().parents[2]))
FERRY = os.environ.get("FERRY", str(ROOT / "build" / "ferry"))

NEEDS_ALL = """#include <cuda_runtime.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cusparse.h>
#include <cuda_fp16.h>
#include <math_constants.h>
#include <cuda_fp8.h>
#include <cuda_gl_interop.h>
__global__ void q(__nv_fp8_storage_t* o, float f) { o[0] = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3); }
__global__ void k(unsigned* p, __nv_bfloat16* h) { p[0] = __vadd2(p[0], p[1]); h[0] = __float2bfloat16(1.f); }
__global__ void m(__half* x, __half2* y, float* f) { x[0] = __hmax(x[0], x[1]); y[0] = __hmax2(y[0], y[1]); f[0] = CUDART_PI_F; }
const char* name(cusparseStatus_t s) { return cusparseGetErrorString(s); }
bool host(cudaMemLocation l) { return l.type == cudaMemLocationTypeHost; }
const char* drv(CUresult r) { const char* s = nullptr; cuGetErrorString(r, &s); cuGetErrorName(r, &s); return s; }
__global__ void mm(unsigned* p, unsigned rem) { p[0] = umin(rem, p[1]) + min(rem, blockDim.x); }
__global__ void acc(__half* x, __half2* y) { atomicAdd(x, x[1]); atomicAdd(y, y[1]); }
CUcontext ctx(CUdevice d) { CUctxCreateParams prm = {}; CUcontext c; cuCtxCreate(&c, &prm, 0, d); return c; }
__global__ void iv(float* lo, double* hi) { lo[0] = __fadd_rd(lo[1], lo[2]); hi[0] = __dmul_ru(hi[1], hi[2]); }
int engines(cudaDeviceProp p) { return p.asyncEngineCount; }
__global__ void ts(float2* v) { auto t = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block()); float2 x = v[0]; v[1] = t.shfl_xor(x, 1); }
__global__ void a64(long long* p) { atomicMin(p, p[1]); atomicMax(p + 2, p[3]); }
__global__ void hs(__half* h) { h[threadIdx.x] = __shfl_down_sync(0xffffffff, h[threadIdx.x], 1); }
__global__ void px(unsigned* r) { unsigned d; asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(r[0]), "r"(r[1]), "r"(r[2])); r[3] = d; }
__global__ void dp(int* r, unsigned* u) { r[0] = __dp4a(r[1], r[2], r[3]); u[0] = __dp2a_hi(u[1], u[2], u[3]); }
int cm(int a, int b) { return CUB_MAX(a, b) + CUB_QUOTIENT_CEILING(a, b); }
cusparseStatus_t sm(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B, cusparseSpSMDescr_t d, const float* a) {
  return cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, a, A, B, B, CUDA_R_32F,
                            CUSPARSE_SPSM_ALG_DEFAULT, d);
}
cusparseStatus_t sv(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x, cusparseSpSVDescr_t d, const float* a) {
  return cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, a, A, x, x, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, d);
}
int rt() { return CUDART_VERSION; }
"""

SIMD_UNARY = {"__vabs2", "__vabs4", "__vabsss2", "__vabsss4", "__vneg2", "__vneg4", "__vnegss2", "__vnegss4"}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def hip_compile(hipcc, src: Path, inc: Path, out: Path, link: bool):
    cmd = [hipcc, "-x", "hip", "--offload-arch=gfx906", "-I", str(inc), str(src), "-o", str(out)]
    if not link:
        cmd.insert(1, "-c")
    p = run(cmd)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: hipcc {src.name}:\n{p.stderr[-4000:]}")


# ---- SIMD reference (lane by lane, from the CUDA Math API's definitions) ----------------------------
def lanes(x, bits):
    return [(x >> (i * bits)) & ((1 << bits) - 1) for i in range(32 // bits)]


def signed(v, bits):
    return v - (1 << bits) if v & (1 << (bits - 1)) else v


def pack(vals, bits):
    r = 0
    for i, v in enumerate(vals):
        r |= (v & ((1 << bits) - 1)) << (i * bits)
    return r


def simd_ref(name, a, b):
    bits = 16 if name.endswith("2") else 8
    base = name[:-1]
    hi_s, lo_s, hi_u = (1 << (bits - 1)) - 1, -(1 << (bits - 1)), (1 << bits) - 1
    cs = lambda v: max(lo_s, min(hi_s, v))
    cu = lambda v: max(0, min(hi_u, v))
    A, B = lanes(a, bits), lanes(b, bits)
    SA, SB = [signed(x, bits) for x in A], [signed(x, bits) for x in B]
    if base in ("__vsads", "__vsadu"):
        xs, ys = (SA, SB) if base == "__vsads" else (A, B)
        return sum(abs(x - y) for x, y in zip(xs, ys)) & 0xFFFFFFFF
    cmp = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "ge": lambda x, y: x >= y,
           "gt": lambda x, y: x > y, "le": lambda x, y: x <= y, "lt": lambda x, y: x < y}
    m = re.match(r"__v(cmp|set)(eq|ne|ge|gt|le|lt)(s|u)?$", base)
    if m:
        xs, ys = (SA, SB) if m.group(3) == "s" else (A, B)
        t = -1 if m.group(1) == "cmp" else 1
        return pack([t if cmp[m.group(2)](x, y) else 0 for x, y in zip(xs, ys)], bits)
    ops = {
        "__vabs": lambda: [abs(x) for x in SA],
        "__vabsss": lambda: [cs(abs(x)) for x in SA],
        "__vneg": lambda: [-x for x in SA],
        "__vnegss": lambda: [cs(-x) for x in SA],
        "__vadd": lambda: [x + y for x, y in zip(A, B)],
        "__vsub": lambda: [x - y for x, y in zip(A, B)],
        "__vaddss": lambda: [cs(x + y) for x, y in zip(SA, SB)],
        "__vaddus": lambda: [cu(x + y) for x, y in zip(A, B)],
        "__vsubss": lambda: [cs(x - y) for x, y in zip(SA, SB)],
        "__vsubus": lambda: [cu(x - y) for x, y in zip(A, B)],
        "__vabsdiffs": lambda: [abs(x - y) for x, y in zip(SA, SB)],
        "__vabsdiffu": lambda: [abs(x - y) for x, y in zip(A, B)],
        "__vavgs": lambda: [(x + y + 1) >> 1 for x, y in zip(SA, SB)],
        "__vavgu": lambda: [(x + y + 1) >> 1 for x, y in zip(A, B)],
        "__vhaddu": lambda: [(x + y) >> 1 for x, y in zip(A, B)],
        "__vmaxs": lambda: [max(x, y) for x, y in zip(SA, SB)],
        "__vmaxu": lambda: [max(x, y) for x, y in zip(A, B)],
        "__vmins": lambda: [min(x, y) for x, y in zip(SA, SB)],
        "__vminu": lambda: [min(x, y) for x, y in zip(A, B)],
    }
    return pack(ops[base](), bits)


def simd_inputs():
    edge = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF, 0x01FF80FE]
    rng = random.Random(13)
    vals = edge + [rng.getrandbits(32) for _ in range(40)]
    return [(a, b) for a in vals[:12] for b in vals[:12]] + [(rng.choice(vals), rng.choice(vals)) for _ in range(200)]


def dot_ref(name, a, b, c):
    """__dp4a / __dp2a_lo / __dp2a_hi, from the CUDA Math API: products summed into c, modulo 2^32."""
    signed_args = name.endswith("_s")
    base = name[:-2]
    if base == "__dp4a":
        A, B = lanes(a, 8), lanes(b, 8)
        if signed_args:
            A, B = [signed(x, 8) for x in A], [signed(x, 8) for x in B]
        prods = [x * y for x, y in zip(A, B)]
    else:
        A, B = lanes(a, 16), lanes(b, 8)[(0 if base == "__dp2a_lo" else 2):][:2]
        if signed_args:
            A, B = [signed(x, 16) for x in A], [signed(x, 8) for x in B]
        prods = [x * y for x, y in zip(A, B)]
    return (c + sum(prods)) & 0xFFFFFFFF


def test_dot(hipcc, inc, tmp):
    """simd.h's packed dot products, signed and unsigned, against dot_ref on the host paths."""
    rng = random.Random(29)
    edge = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF, 0x01FF80FE]
    triples = [(a, b, c) for a in edge for b in edge for c in (0, 0x7FFFFFFF, 0xFFFFFFFF)]
    triples += [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)) for _ in range(300)]
    names = ["__dp4a", "__dp2a_lo", "__dp2a_hi"]
    src = ['#include "ferry/compat/simd.h"', "#include <cstdio>",
           "__global__ void device_uses(int* o, const char4* a, const uchar4* b, const short2* s, const ushort2* u) {",
           "  const int i = threadIdx.x;",
           "  o[i] = __dp4a(a[i], a[i], 1) + (int)__dp4a(b[i], b[i], 2u) + __dp2a_lo(s[i], a[i], 3) +",
           "         (int)__dp2a_hi(u[i], b[i], 4u);",
           "}", "static const unsigned kTriples[][3] = {"]
    src += [f"  {{0x{a:08x}u, 0x{b:08x}u, 0x{c:08x}u}}," for a, b, c in triples]
    src += ["};", "int main() {", "  for (const auto& t : kTriples) {"]
    for n in names:
        src.append(f'    std::printf("%08x %08x\\n", (unsigned){n}((int)t[0], (int)t[1], (int)t[2]), {n}(t[0], t[1], t[2]));')
    src += ["  }", "}"]
    f = tmp / "dot_check.hip"
    f.write_text("\n".join(src) + "\n")
    hip_compile(hipcc, f, inc, tmp / "dot_check", link=True)
    out = run([str(tmp / "dot_check")]).stdout.split("\n")
    bad, k = [], 0
    for a, b, c in triples:
        for n in names:
            got_s, got_u = (int(x, 16) for x in out[k].split())
            k += 1
            for got, want, kind in ((got_s, dot_ref(n + "_s", a, b, c), "int"), (got_u, dot_ref(n + "_u", a, b, c), "unsigned")):
                if got != want:
                    bad.append(f"{n}({kind}: 0x{a:08x}, 0x{b:08x}, 0x{c:08x}) = 0x{got:08x}, want 0x{want:08x}")
    if bad:
        raise SystemExit("FAIL: dot products differ from the reference:\n  " + "\n  ".join(bad[:20]))
    print(f"dot: __dp4a, __dp2a_lo, __dp2a_hi (vector overloads compiled for gfx906); "
          f"{len(triples) * len(names) * 2} signed and unsigned results match the reference")


def test_simd(hipcc, inc, tmp, names):
    names = [n for n in names if not n.startswith("__dp")]  # three arguments: test_dot
    pairs = simd_inputs()
    src = ['#include "ferry/compat/simd.h"', "#include <cstdio>",
           "__global__ void device_uses(unsigned* o, const unsigned* a, const unsigned* b) {",
           "  unsigned i = threadIdx.x, r = 0;"]
    src += [f"  r ^= {n}(a[i]);" if n in SIMD_UNARY else f"  r ^= {n}(a[i], b[i]);" for n in names]
    src += ["  o[i] = r;", "}", "static const unsigned kPairs[][2] = {"]
    src += [f"  {{0x{a:08x}u, 0x{b:08x}u}}," for a, b in pairs]
    src += ["};", "int main() {", "  for (const auto& p : kPairs) {"]
    src += [f'    std::printf("{n} %08x\\n", {n}(p[0]));' if n in SIMD_UNARY
            else f'    std::printf("{n} %08x\\n", {n}(p[0], p[1]));' for n in names]
    src += ["  }", "}"]
    f = tmp / "simd_check.hip"
    f.write_text("\n".join(src) + "\n")
    hip_compile(hipcc, f, inc, tmp / "simd_check", link=True)
    out = run([str(tmp / "simd_check")]).stdout.split("\n")
    bad, k = [], 0
    for a, b in pairs:
        for n in names:
            got = int(out[k].split()[1], 16)
            want = simd_ref(n, a, b if n not in SIMD_UNARY else 0)
            k += 1
            if got != want:
                bad.append(f"{n}(0x{a:08x}, 0x{b:08x}) = 0x{got:08x}, want 0x{want:08x}")
    if bad:
        raise SystemExit("FAIL: SIMD results differ from the reference:\n  " + "\n  ".join(bad[:20]))
    print(f"simd: {len(names)} intrinsics compiled for gfx906; {len(pairs) * len(names)} results match the reference")


# ---- bfloat16 ------------------------------------------------------------------------------------------
BF16_DEVICE = r"""
#include "ferry/compat/bf16.h"
__global__ void device_uses(__hip_bfloat16* h, __hip_bfloat162* h2, float* f, long long* ll) {
  const unsigned i = threadIdx.x;
  __hip_bfloat16 a = h[i], b = h[i + 1];
  __hip_bfloat162 p = h2[i];
  __hip_bfloat16_raw raw = a;
  __hip_bfloat162_raw raw2 = p;
  a = raw; p = raw2;
  f[i] = __bfloat162float(a) + __low2float(p) + __high2float(p);
  float2 f2 = __bfloat1622float2(p);
  f[i] += f2.x + f2.y;
  h[i] = __hadd(a, b) + __hsub(a, b) * __hmul(a, b) / __hdiv(a, b);
  h[i] = __hfma(a, b, __hmax(a, __hmin(a, b))) + __hneg(a) + __habs(b) - (-a);
  p = __hadd2(p, __hsub2(p, __hmul2(p, __hdiv2(p, __hfma2(p, p, __hmax2(p, __hmin2(p, p)))))));
  p = __hneg2(__habs2(p)) + p - p * p / p;
  p += p; p -= p; p *= p; p /= p;
  a += b; a -= b; a *= b; a /= b;
  ll[i] = __heq(a, b) + __hne(a, b) + __hlt(a, b) + __hle(a, b) + __hgt(a, b) + __hge(a, b) + __hisnan(a) + __hisinf(b) +
          (a == b) + (a != b) + (a < b) + (a <= b) + (a > b) + (a >= b);
  p = make_bfloat162(a, b); p = __halves2bfloat162(a, b); p = __bfloat162bfloat162(a);
  p = __float2bfloat162_rn(1.f); p = __floats2bfloat162_rn(1.f, 2.f); p = __float22bfloat162_rn(make_float2(1.f, 2.f));
  a = __low2bfloat16(p); b = __high2bfloat16(p);
  p = __low2bfloat162(p); p = __high2bfloat162(p); p = __lows2bfloat162(p, p); p = __highs2bfloat162(p, p);
  a = __shfl(a, 1); a = __shfl_xor(a, 1); a = __shfl_up(a, 1u); a = __shfl_down(a, 1u);
  p = __shfl(p, 1); p = __shfl_xor(p, 1, 32); p = __shfl_up(p, 1u); p = __shfl_down(p, 1u);
  a = __float2bfloat16(f[i]); a = __float2bfloat16_rn(f[i]); a = __float2bfloat16_rz(f[i]);
  a = __float2bfloat16_rd(f[i]); a = __float2bfloat16_ru(f[i]); a = __double2bfloat16(1.0);
  a = __short_as_bfloat16(__bfloat16_as_short(a)); a = __ushort_as_bfloat16(__bfloat16_as_ushort(a));
  hip_bfloat16 lib = a; a = lib;
#define FROM(T, n) a = __##n##2bfloat16_rn((T)ll[i]); a = __##n##2bfloat16_rz((T)ll[i]); \
  a = __##n##2bfloat16_rd((T)ll[i]); a = __##n##2bfloat16_ru((T)ll[i]);
  FROM(int, int) FROM(unsigned, uint) FROM(short, short) FROM(unsigned short, ushort) FROM(long long, ll)
  FROM(unsigned long long, ull)
#define TO(n) ll[i] += __bfloat162##n##_rn(a) + __bfloat162##n##_rz(a) + __bfloat162##n##_rd(a) + __bfloat162##n##_ru(a);
  TO(int) TO(uint) TO(short) TO(ushort) TO(ll) TO(ull)
  h[i] = a;
}
"""

# The same host program for both compilers: HIP with Ferry's header, CUDA with cuda_bf16.h. Only
# functions cuda_bf16.h declares __host__ __device__ (CUDA 13).
BF16_HOST = r"""
#include <cstdio>
#include <cstring>
#ifdef __HIPCC__
#include "ferry/compat/bf16.h"
typedef __hip_bfloat16 bf16;
#else
#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16;
#endif
#define B(x) ((unsigned)__bfloat16_as_ushort(x))
static float f_of(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
static unsigned as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
int main() {
  static const unsigned kFloats[] = {FLOATS};
  static const long long kInts[] = {INTS};
  for (unsigned u : kFloats) {
    const float f = f_of(u);
    std::printf("f %08x %04x %04x %04x %04x %04x %04x\n", u, B(__float2bfloat16(f)), B(__float2bfloat16_rn(f)),
                B(__float2bfloat16_rz(f)), B(__float2bfloat16_rd(f)), B(__float2bfloat16_ru(f)),
                B(__double2bfloat16((double)f * 1.0000001)));
    const bf16 h = __float2bfloat16(f);
    if (__hisnan(h)) continue;  // NaN to integer: both 0, checked in the rz line only
    std::printf("i %04x %d %lld %d %u %llu %u %08x\n", B(h), __bfloat162int_rz(h), __bfloat162ll_rz(h),
                (int)__bfloat162short_rz(h), __bfloat162uint_rz(h), __bfloat162ull_rz(h),
                (unsigned)__bfloat162ushort_rz(h), as_uint(__bfloat162float(h)));
  }
  for (long long v : kInts)
    std::printf("n %lld %04x %04x %04x %04x %04x %04x\n", v, B(__int2bfloat16_rn((int)v)), B(__ll2bfloat16_rn(v)),
                B(__uint2bfloat16_rn((unsigned)v)), B(__ull2bfloat16_rn((unsigned long long)v)),
                B(__short2bfloat16_rn((short)v)), B(__ushort2bfloat16_rn((unsigned short)v)));
  for (unsigned x : kFloats)
    for (unsigned y : kFloats) {
      const bf16 a = __float2bfloat16(f_of(x)), b = __float2bfloat16(f_of(y));
      if (__hisnan(a) || __hisnan(b)) continue;  // NaN payloads are not specified
      std::printf("a %04x %04x %04x %04x %04x %04x %04x %04x %04x %04x %d%d%d%d%d%d %d\n", B(a), B(b), B(__hadd(a, b)),
                  B(__hsub(a, b)), B(__hmul(a, b)), B(__hdiv(a, b)), B(__hmax(a, b)), B(__hmin(a, b)), B(__hneg(a)),
                  B(__habs(a)), __heq(a, b), __hne(a, b), __hlt(a, b), __hle(a, b), __hgt(a, b), __hge(a, b),
                  __hisinf(a));
    }
}
"""


def float_inputs():
    edge = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F808000, 0x3F818000, 0x3F80FFFF, 0x3F807FFF,
            0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF, 0x00400000,
            0x4B000000, 0x4F000000, 0x4F800000, 0x5F000000, 0x5F800000, 0xCF000000, 0xDF000000, 0x46FFFE00,
            0x47800000, 0x477FFF00, 0x40200000, 0x40600000, 0xC0200000, 0x3EFFFFFF]
    rng = random.Random(7)
    return edge + [rng.getrandbits(32) for _ in range(50)]


def int_inputs():
    rng = random.Random(11)
    return [0, 1, -1, 255, 256, 257, 32767, -32768, 65535, 16777217, 2147483647, -2147483648,
            9007199254740993, -9007199254740993] + [rng.randrange(-2**40, 2**40) for _ in range(30)]


def test_bf16(hipcc, nvcc, inc, tmp, names):
    dev = tmp / "bf16_device.hip"
    dev.write_text(BF16_DEVICE)
    hip_compile(hipcc, dev, inc, tmp / "bf16_device.o", link=False)
    used = set(re.findall(r"\b(__\w+|make_bfloat162)\b", BF16_DEVICE))
    for m in re.finditer(r"FROM\(([^,]+), (\w+)\)", BF16_DEVICE):
        used |= {f"__{m.group(2)}2bfloat16{s}" for s in ("_rn", "_rz", "_rd", "_ru")}
    for m in re.finditer(r"TO\((\w+)\)", BF16_DEVICE):
        used |= {f"__bfloat162{m.group(1)}{s}" for s in ("_rn", "_rz", "_rd", "_ru")}
    unused = sorted(n for n in names if n not in used)
    if unused:
        raise SystemExit(f"FAIL: compat.tsv bf16 names the device test does not use: {unused}")
    print(f"bf16: {len(names)} names compiled for gfx906")
    if not nvcc:
        print("bf16: nvcc not installed: the host comparison with CUDA's cuda_bf16.h is skipped")
        return
    host = BF16_HOST.replace("FLOATS", ", ".join(f"0x{u:08x}u" for u in float_inputs()))
    host = host.replace("INTS", ", ".join(f"{v}LL" for v in int_inputs()))
    hsrc, csrc = tmp / "bf16_host.hip", tmp / "bf16_host.cu"
    hsrc.write_text(host)
    csrc.write_text(host)
    hip_compile(hipcc, hsrc, inc, tmp / "bf16_hip", link=True)
    p = run([nvcc, "-arch=sm_90", str(csrc), "-o", str(tmp / "bf16_cuda")])
    if p.returncode != 0:
        raise SystemExit(f"FAIL: nvcc bf16_host.cu:\n{p.stderr[-4000:]}")
    ours = run([str(tmp / "bf16_hip")]).stdout.splitlines()
    cuda = run([str(tmp / "bf16_cuda")]).stdout.splitlines()
    diff = [f"  ferry: {a}\n  cuda:  {b}" for a, b in zip(ours, cuda) if a != b]
    if len(ours) != len(cuda) or diff:
        raise SystemExit(f"FAIL: {len(diff)} of {len(cuda)} bf16 host results differ from CUDA's:\n" + "\n".join(diff[:10]))
    print(f"bf16: {len(cuda)} lines of host results equal CUDA {nvcc}'s cuda_bf16.h bit for bit")


def test_hipsparse(hipcc, inc, tmp, names):
    src = tmp / "hipsparse_check.hip"
    src.write_text('#include "ferry/compat/hipsparse.h"\n#include <cstdio>\nint main() {\n'
                   '  for (int s = 0; s <= 11; ++s) std::printf("%s|%s\\n", hipsparseGetErrorName((hipsparseStatus_t)s),\n'
                   '                                          hipsparseGetErrorString((hipsparseStatus_t)s));\n}\n')
    hip_compile(hipcc, src, inc, tmp / "hipsparse_check", link=True)
    lines = run([str(tmp / "hipsparse_check")]).stdout.splitlines()
    header = Path("/usr/include/hipsparse/hipsparse.h").read_text()
    for s, line in enumerate(lines):
        name = line.split("|")[0]
        if not re.search(rf"\b{name}\s*=\s*{s}\b", header):
            raise SystemExit(f"FAIL: hipsparseGetErrorName({s}) = {name}, not the enumerator hipsparse.h gives {s}")
    assert set(names) == {"hipsparseGetErrorName", "hipsparseGetErrorString"}, names
    print(f"hipsparse: {len(names)} names compiled; the names of statuses 0..11 match hipsparse.h")


def test_coop_reduce(hipcc, inc, tmp):
    src = tmp / "coop_check.hip"
    body = ['#include "ferry/compat/coop_reduce.h"', "namespace cg = cooperative_groups;",
            "__global__ void k(const float* in, float* out, unsigned* bits) {",
            "  cg::thread_block block = cg::this_thread_block();"]
    for n in (4, 16, 32, 64):
        body += [f"  cg::thread_block_tile<{n}> t{n} = cg::tiled_partition<{n}>(block);",
                 f"  out[{n}] = cg::reduce(t{n}, in[threadIdx.x], cg::plus<float>())"
                 f" + cg::reduce(t{n}, in[threadIdx.x], cg::less<float>()) + cg::reduce(t{n}, in[threadIdx.x], cg::greater<float>());",
                 f"  bits[{n}] = cg::reduce(t{n}, bits[threadIdx.x], cg::bit_and<unsigned>())"
                 f" ^ cg::reduce(t{n}, bits[threadIdx.x], cg::bit_or<unsigned>()) ^ cg::reduce(t{n}, bits[threadIdx.x], cg::bit_xor<unsigned>());"]
    src.write_text("\n".join(body + ["}"]) + "\n")
    hip_compile(hipcc, src, inc, tmp / "coop_check.o", link=False)
    print("coop_reduce: reduce with plus/less/greater/bit_and/bit_or/bit_xor over tiles of 4..64 compiled for gfx906")


def half_bits_to_float(b):
    import struct
    return struct.unpack("<e", struct.pack("<H", b))[0]


# One program for both compilers: HIP with Ferry's header, CUDA with cuda_fp16.h (its host code).
# A kernel uses every name, so their device code is compiled for gfx906 too.
FP16_HOST = r"""
#include <cstdio>
#include <cstring>
#ifdef __HIPCC__
#include "ferry/compat/fp16.h"
#else
#include <cuda_fp16.h>
#endif
static unsigned short b(__half h) { unsigned short u; std::memcpy(&u, &h, 2); return u; }
static __half h(unsigned short u) { __half x; std::memcpy(&x, &u, 2); return x; }
static unsigned b2(__half2 v) { return b(__low2half(v)) | (unsigned)b(__high2half(v)) << 16; }
__global__ void device_uses(__half* x, __half2* y) {
  const unsigned i = threadIdx.x;
  x[i] = __hmax(__hmin(x[i], x[i + 1]), __hmax_nan(x[i], __hmin_nan(x[i], x[i + 1])));
  y[i] = __hmax2(__hmin2(y[i], y[i + 1]), __hmax2_nan(y[i], __hmin2_nan(y[i], y[i + 1])));
}
int main() {
  static const unsigned short v[] = {VALUES};
  const unsigned n = sizeof v / sizeof v[0];
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j) {
      const __half a = h(v[i]), c = h(v[j]);
      std::printf("h %u %u %u %u %u %u\n", v[i], v[j], b(__hmax(a, c)), b(__hmin(a, c)), b(__hmax_nan(a, c)),
                  b(__hmin_nan(a, c)));
      // Each lane pairs other operands: low (v[i], v[j]), high (v[j], v[(i + j) % n]).
      const __half2 p = __halves2half2(a, c), q = __halves2half2(c, h(v[(i + j) % n]));
      std::printf("p %u %u %u %u %u %u\n", b2(p), b2(q), b2(__hmax2(p, q)), b2(__hmin2(p, q)), b2(__hmax2_nan(p, q)),
                  b2(__hmin2_nan(p, q)));
    }
}
"""


def fp16_values():
    specials = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0xfe00, 0x7fff, 0x0001, 0x8001,
                0x7bff, 0xfbff, 0x4248, 0x4200, 0x03ff, 0x8400]
    rng = random.Random(5)
    return specials + [rng.getrandbits(16) for _ in range(22)]


def fp16_ref(a, c, want_max, nan_wins):
    """CUDA Math API: NaN handling, then +0 above -0, then the numeric order."""
    import math
    fa, fc = half_bits_to_float(a), half_bits_to_float(c)
    na, nc = math.isnan(fa), math.isnan(fc)
    if na or nc:
        return 0x7FFF if (nan_wins or (na and nc)) else (c if na else a)
    if fa == fc:
        neg_a, neg_c = a >> 15, c >> 15
        if neg_a != neg_c:
            return (c if neg_a else a) if want_max else (a if neg_a else c)
        return a
    return a if (fa > fc) == want_max else c


def test_fp16(hipcc, nvcc, inc, tmp, names):
    """The compat __hmax family on __half and __half2: device code compiled for gfx906; host results
    against a reference written here from CUDA's rules, and against CUDA's cuda_fp16.h (nvcc) when
    installed, bit for bit."""
    values = fp16_values()
    prog = FP16_HOST.replace("VALUES", ", ".join(hex(x) for x in values))
    src = tmp / "fp16_check.hip"
    src.write_text(prog)
    hip_compile(hipcc, src, inc, tmp / "fp16_check", link=True)
    lines = run([str(tmp / "fp16_check")]).stdout.splitlines()
    if len(lines) != 2 * len(values) ** 2:
        raise SystemExit(f"FAIL: fp16 check printed {len(lines)} lines")
    bad = []
    for line in lines:
        kind, x, y, mx, mn, mxn, mnn = line.split()
        x, y, got = int(x), int(y), tuple(map(int, (mx, mn, mxn, mnn)))
        ops = ((True, False), (False, False), (True, True), (False, True))
        if kind == "h":
            want = tuple(fp16_ref(x, y, m, nw) for m, nw in ops)
        else:
            lane = lambda v, k: (v >> (16 * k)) & 0xFFFF
            want = tuple(fp16_ref(lane(x, 0), lane(y, 0), m, nw) | fp16_ref(lane(x, 1), lane(y, 1), m, nw) << 16
                         for m, nw in ops)
        if got != want:
            bad.append(f"{kind} {x:#x},{y:#x}: got " + " ".join(f"{g:#x}" for g in got) + ", want " +
                       " ".join(f"{w:#x}" for w in want))
    if bad:
        raise SystemExit(f"FAIL: fp16 compat, {len(bad)} results differ from CUDA's rules:\n" + "\n".join(bad[:10]))
    assert set(names) == {"__hmax", "__hmin", "__hmax_nan", "__hmin_nan", "__hmax2", "__hmin2", "__hmax2_nan",
                          "__hmin2_nan"}, names
    print(f"fp16: {len(names)} names compiled for gfx906; {len(lines)} operand pairs ({len(values)} values incl. "
          "NaNs, signed zeros, subnormals) match CUDA's NaN/zero rules")
    if not nvcc:
        print("fp16: nvcc not installed: the host comparison with CUDA's cuda_fp16.h is skipped")
        return
    csrc = tmp / "fp16_check.cu"
    csrc.write_text(prog)
    p = run([nvcc, "-arch=sm_90", str(csrc), "-o", str(tmp / "fp16_cuda")])
    if p.returncode != 0:
        raise SystemExit(f"FAIL: nvcc fp16_check.cu:\n{p.stderr[-4000:]}")
    cuda = run([str(tmp / "fp16_cuda")]).stdout.splitlines()
    diff = [f"  ferry: {a}\n  cuda:  {c}" for a, c in zip(lines, cuda) if a != c]
    if len(cuda) != len(lines) or diff:
        raise SystemExit(f"FAIL: {len(diff)} of {len(cuda)} fp16 results differ from CUDA's cuda_fp16.h:\n" +
                         "\n".join(diff[:10]))
    print(f"fp16: {len(cuda)} lines of host results equal CUDA {nvcc}'s cuda_fp16.h bit for bit")


# ---- fp8 (OCP E4M3 / E5M2, CUDA's cuda_fp8.h C API) --------------------------------------------------
# One program for both compilers: HIP with Ferry's header, CUDA with cuda_fp8.h (its host code). The
# inputs come on stdin (one "kind hexbits" per line); each line out has the four codes
# (e4m3 nosat, e4m3 satfinite, e5m2 nosat, e5m2 satfinite), or the two half results of a code.
FP8_PROG = r"""
#include <cstdio>
#include <cstring>
#ifdef __HIPCC__
#include "ferry/compat/fp8.h"
struct bf16raw { unsigned short x; };
struct bf162raw { unsigned short x, y; };
#else
#include <cuda_fp8.h>
typedef __nv_bfloat16_raw bf16raw;
typedef __nv_bfloat162_raw bf162raw;
#endif
__global__ void device_uses(__nv_fp8_storage_t* o, __nv_fp8x2_storage_t* o2, __half_raw* h, __half2_raw* h2,
                            const float* f, const double* d) {
  const unsigned i = threadIdx.x;
  const __nv_saturation_t s = i & 1 ? __NV_SATFINITE : __NV_NOSAT;
  const __nv_fp8_interpretation_t k = i & 2 ? __NV_E5M2 : __NV_E4M3;
  __nv_fp8x4_storage_t four = 0;
  o[i] = __nv_cvt_float_to_fp8(f[i], s, k) ^ __nv_cvt_double_to_fp8(d[i], s, k) ^ __nv_cvt_halfraw_to_fp8(h[i], s, k);
  bf16raw b; b.x = h[i].x;
  bf162raw b2; b2.x = h[i].x; b2.y = h[i + 1].x;
  o[i] ^= __nv_cvt_bfloat16raw_to_fp8(b, s, k);
  o2[i] = __nv_cvt_float2_to_fp8x2(make_float2(f[i], f[i + 1]), s, k) ^
          __nv_cvt_double2_to_fp8x2(make_double2(d[i], d[i + 1]), s, k) ^ __nv_cvt_halfraw2_to_fp8x2(h2[i], s, k) ^
          __nv_cvt_bfloat16raw2_to_fp8x2(b2, s, k);
  h[i] = __nv_cvt_fp8_to_halfraw(o[i], k);
  h2[i] = __nv_cvt_fp8x2_to_halfraw2(o2[i] + four, k);
}
static void put(unsigned char a, unsigned char b, unsigned char c, unsigned char d) {
  std::printf("%02x%02x%02x%02x\n", a, b, c, d);
}
int main() {
  char kind;
  unsigned long long v;
  while (std::scanf(" %c %llx", &kind, &v) == 2) {
    if (kind == 'f') {
      unsigned u = (unsigned)v; float f; std::memcpy(&f, &u, 4);
      put(__nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E4M3), __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E5M2), __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'd') {
      double d; std::memcpy(&d, &v, 8);
      put(__nv_cvt_double_to_fp8(d, __NV_NOSAT, __NV_E4M3), __nv_cvt_double_to_fp8(d, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_double_to_fp8(d, __NV_NOSAT, __NV_E5M2), __nv_cvt_double_to_fp8(d, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'h') {
      __half_raw h; h.x = (unsigned short)v;
      put(__nv_cvt_halfraw_to_fp8(h, __NV_NOSAT, __NV_E4M3), __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_halfraw_to_fp8(h, __NV_NOSAT, __NV_E5M2), __nv_cvt_halfraw_to_fp8(h, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'b') {
      bf16raw b; b.x = (unsigned short)v;
      put(__nv_cvt_bfloat16raw_to_fp8(b, __NV_NOSAT, __NV_E4M3), __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E4M3),
          __nv_cvt_bfloat16raw_to_fp8(b, __NV_NOSAT, __NV_E5M2), __nv_cvt_bfloat16raw_to_fp8(b, __NV_SATFINITE, __NV_E5M2));
    } else if (kind == 'c') {  // a code: to half in both interpretations
      std::printf("%04x%04x\n", __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E4M3).x,
                  __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E5M2).x);
    } else if (kind == 'p') {  // pairs: two floats (low 32 bits: x) and the code pair
      unsigned ux = (unsigned)v, uy = (unsigned)(v >> 32); float x, y;
      std::memcpy(&x, &ux, 4); std::memcpy(&y, &uy, 4);
      __half_raw hx, hy; hx.x = (unsigned short)(ux >> 16); hy.x = (unsigned short)(uy >> 16);
      __half2_raw h2; h2.x = hx.x; h2.y = hy.x;
      bf162raw b2; b2.x = hx.x; b2.y = hy.x;
      const __nv_fp8x2_storage_t c = __nv_cvt_float2_to_fp8x2(make_float2(x, y), __NV_SATFINITE, __NV_E4M3);
      const __half2_raw back = __nv_cvt_fp8x2_to_halfraw2(c, __NV_E5M2);
      std::printf("%04x%04x%04x%04x%04x%04x\n", c, __nv_cvt_double2_to_fp8x2(make_double2(x, y), __NV_NOSAT, __NV_E5M2),
                  __nv_cvt_halfraw2_to_fp8x2(h2, __NV_NOSAT, __NV_E4M3),
                  __nv_cvt_bfloat16raw2_to_fp8x2(b2, __NV_SATFINITE, __NV_E5M2), back.x, back.y);
    }
  }
}
"""

FP8 = {"e4m3": (4, 3, 7), "e5m2": (5, 2, 15)}  # exponent bits, mantissa bits, bias


def fp8_value(code, fmt):
    """The exact value of a code (a Python float holds every one), or None for NaN."""
    eb, mb, bias = FP8[fmt]
    sign = -1.0 if code & 0x80 else 1.0
    ef, f = (code >> mb) & ((1 << eb) - 1), code & ((1 << mb) - 1)
    if fmt == "e4m3" and code & 0x7F == 0x7F:
        return None
    if fmt == "e5m2" and ef == 31:
        return None if f else sign * math.inf
    if ef == 0:
        return sign * f * 2.0 ** (1 - bias - mb)
    return sign * (1 + f / 2 ** mb) * 2.0 ** (ef - bias)


@functools.lru_cache(maxsize=None)
def fp8_magnitudes(fmt):
    """Finite magnitudes in code order (0..largest), then the first value past the largest, where
    overflow starts (480 for E4M3, 65536 for E5M2)."""
    eb, mb, bias = FP8[fmt]
    top = 0x7E if fmt == "e4m3" else 0x7B
    beyond = (1 + ((top & ((1 << mb) - 1)) + 1) / 2 ** mb) * 2.0 ** ((top >> mb) - bias)
    return tuple(fp8_value(c, fmt) for c in range(top + 1)) + (beyond,)


def fp8_ref_encode(x, sat, fmt):
    """Round to nearest, ties to even (the code's low bit), once; CUDA's overflow and NaN rules."""
    if math.isnan(x):
        return 0x7F
    s = 0x80 if math.copysign(1, x) < 0 else 0
    top, over = (0x7E, 0x7F) if fmt == "e4m3" else (0x7B, 0x7C)
    a = abs(x)
    if math.isinf(a):
        return s | (top if sat else over)
    vals = fp8_magnitudes(fmt)
    i = bisect.bisect_left(vals, a)
    if i < len(vals) and vals[i] == a:
        c = i
    elif i >= len(vals):
        c = top + 1
    else:
        lo, hi = vals[i - 1], vals[i]
        c = i - 1 if (a - lo < hi - a or (a - lo == hi - a and (i - 1) % 2 == 0)) else i
    if c > top:
        return s | (top if sat else over)
    return s | c


def half_bits_value(b):
    return struct.unpack("<e", struct.pack("<H", b))[0]


def bf16_bits_value(b):
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def float_bits_value(u):
    return struct.unpack("<f", struct.pack("<I", u))[0]


def fp8_inputs():
    """Every half and bfloat16 value; floats at every rounding boundary of both formats (each fp8
    value, each midpoint between neighbours, one float ulp either side) and a grid over all
    exponents; doubles at the midpoints +-1e-12 relative (single rounding, not via float)."""
    ins = [("h", b) for b in range(1 << 16)] + [("b", b) for b in range(1 << 16)]
    floats, doubles = set(), set()
    for fmt in FP8:
        vals = sorted({v for c in range(256) if (v := fp8_value(c, fmt)) is not None and not math.isinf(v)})
        vals.append(2 * vals[-1] - vals[-2] if fmt == "e5m2" else 480.0)  # where overflow begins
        pts = vals + [(a + b) / 2 for a, b in zip(vals, vals[1:])] + [vals[0] + (vals[1] - vals[0]) / 2]
        for p in pts:
            u = struct.unpack("<I", struct.pack("<f", p))[0]
            floats |= {u, u + 1, u - 1, u | 0x80000000, (u + 1) | 0x80000000, (u - 1) | 0x80000000}
            for d in (p * (1 + 1e-12), p * (1 - 1e-12), p, -p):
                doubles.add(struct.unpack("<Q", struct.pack("<d", d))[0])
    rng = random.Random(8)
    for e in range(256):
        for m in (0, 1, 0x7FFFFF, 0x400000, 0x3FFFFF, 0x400001, 0x100000, 0x0FFFFF, 0x080000, 0x07FFFF):
            floats |= {(e << 23) | m, 0x80000000 | (e << 23) | m}
        floats |= {(e << 23) | rng.getrandbits(23) for _ in range(8)}
    floats |= {0x7FC00000, 0xFFC00000, 0x7F800001, 0x7F800000, 0xFF800000}
    floats = {u & 0xFFFFFFFF for u in floats}
    for u in sorted(floats):
        doubles.add(struct.unpack("<Q", struct.pack("<d", float_bits_value(u)))[0]
                    if not math.isnan(float_bits_value(u)) else 0x7FF8000000000000)
    doubles |= {0x7FF0000000000000, 0xFFF0000000000000, 0x0000000000000001, 0x8000000000000001, 0x7FEFFFFFFFFFFFFF}
    ins += [("f", u & 0xFFFFFFFF) for u in sorted(floats)] + [("d", u) for u in sorted(doubles)]
    ins += [("c", c) for c in range(256)]
    pairs = [rng.choice(sorted(floats)) | rng.choice(sorted(floats)) << 32 for _ in range(300)]
    ins += [("p", v) for v in pairs]
    return ins


def test_fp8(hipcc, nvcc, inc, tmp, names):
    src = tmp / "fp8_check.hip"
    src.write_text(FP8_PROG)
    hip_compile(hipcc, src, inc, tmp / "fp8_check", link=True)
    ins = fp8_inputs()
    stdin = "".join(f"{k} {v:x}\n" for k, v in ins)
    out = run([str(tmp / "fp8_check")], input=stdin).stdout.splitlines()
    if len(out) != len(ins):
        raise SystemExit(f"FAIL: fp8 check printed {len(out)} lines for {len(ins)} inputs")
    bad = []
    value = {"f": float_bits_value, "h": half_bits_value, "b": bf16_bits_value,
             "d": lambda u: struct.unpack("<d", struct.pack("<Q", u))[0]}
    for (k, v), line in zip(ins, out):
        if k == "c":
            want = ""
            for fmt in ("e4m3", "e5m2"):
                x = fp8_value(v, fmt)
                want += "7fff" if x is None else f"{struct.unpack('<H', struct.pack('<e', x))[0]:04x}"
            # both ways: the half a code gives converts back to the same code (NaN to 0x7F)
            for fmt, i in (("e4m3", 0), ("e5m2", 4)):
                hb = int(line[i:i + 4], 16)
                back = fp8_ref_encode(half_bits_value(hb), False, fmt)
                if fp8_value(v, fmt) is not None and back != v:
                    bad.append(f"code {v:#04x} {fmt}: half {hb:#06x} does not convert back")
        elif k == "p":
            continue  # pairs are compared with CUDA below (element order, x in the low byte)
        else:
            x = value[k](v)
            want = "".join(f"{fp8_ref_encode(x, sat, fmt):02x}" for fmt in ("e4m3", "e5m2") for sat in (False, True))
        if line != want:
            bad.append(f"{k} {v:#x} ({value.get(k, lambda u: u)(v)!r}): ferry {line}, reference {want}")
    if bad:
        raise SystemExit(f"FAIL: fp8, {len(bad)} results differ from the reference:\n  " + "\n  ".join(bad[:12]))
    counts = {k: sum(1 for kk, _ in ins if kk == k) for k in "fdhbcp"}
    assert set(names) == FP8_NAMES, sorted(set(names) ^ FP8_NAMES)
    print(f"fp8: {len(names)} names compiled for gfx906; all 256 codes of E4M3 and E5M2 to half and back, every "
          f"half ({counts['h']}) and bfloat16 ({counts['b']}) value, {counts['f']} floats and {counts['d']} doubles at "
          "every rounding boundary and tie, both saturation modes, match the reference")
    if not nvcc:
        print("fp8: nvcc not installed: the comparison with CUDA's cuda_fp8.h is skipped")
        return
    csrc = tmp / "fp8_check.cu"
    csrc.write_text(FP8_PROG)
    p = run([nvcc, "-arch=sm_90", str(csrc), "-o", str(tmp / "fp8_cuda")])
    if p.returncode != 0:
        raise SystemExit(f"FAIL: nvcc fp8_check.cu:\n{p.stderr[-4000:]}")
    cuda = run([str(tmp / "fp8_cuda")], input=stdin).stdout.splitlines()
    # NaN codes: CUDA documents "NaN in, NaN out"; its host code gives 0x7F for a float NaN but
    # keeps a double NaN's sign and payload bits (0x7E, 0xFE in E5M2). Ferry always gives 0x7F, so a
    # byte where both sides hold a NaN of that format counts as equal (and is counted).
    fmts = {"f": "4455", "d": "4455", "h": "4455", "b": "4455", "p": "44554455"}
    is_nan = lambda b, f: (b & 0x7F) == 0x7F if f == "4" else (b & 0x7F) > 0x7C
    diff, nan_payload = [], 0
    for (k, v), a, c in zip(ins, out, cuda):
        if a == c:
            continue
        if k in fmts:
            ab, cb = bytes.fromhex(a), bytes.fromhex(c)
            pos = range(len(fmts[k])) if k != "p" else range(8)  # the four code pairs; the halves after
            if ab[8:] == cb[8:] and all(x == y or is_nan(x, fmts[k][i]) and is_nan(y, fmts[k][i])
                                        for i, x, y in zip(pos, ab, cb)):
                nan_payload += 1
                continue
        diff.append(f"  {k} {v:#x}: ferry {a}, cuda {c}")
    if len(cuda) != len(out) or diff:
        raise SystemExit(f"FAIL: {len(diff)} of {len(cuda)} fp8 results differ from CUDA's cuda_fp8.h:\n" +
                         "\n".join(diff[:12]))
    print(f"fp8: {len(cuda)} results (pairs included) equal CUDA {nvcc}'s cuda_fp8.h bit for bit, but for "
          f"{nan_payload} where both give NaN with another NaN code (CUDA's double NaN payloads)")


FP8_NAMES = {"__nv_fp8_storage_t", "__nv_fp8x2_storage_t", "__nv_fp8x4_storage_t", "__nv_saturation_t",
             "__nv_fp8_interpretation_t", "__NV_NOSAT", "__NV_SATFINITE", "__NV_E4M3", "__NV_E5M2",
             "__nv_cvt_double_to_fp8", "__nv_cvt_double2_to_fp8x2", "__nv_cvt_float_to_fp8",
             "__nv_cvt_float2_to_fp8x2", "__nv_cvt_halfraw_to_fp8", "__nv_cvt_halfraw2_to_fp8x2",
             "__nv_cvt_bfloat16raw_to_fp8", "__nv_cvt_bfloat16raw2_to_fp8x2", "__nv_cvt_fp8_to_halfraw",
             "__nv_cvt_fp8x2_to_halfraw2"}


def test_math_constants(hipcc, inc, tmp, names):
    """Every HIP_* constant of the compat header, printed by hipcc's host code, against CUDA's value."""
    src = tmp / "math_check.hip"
    src.write_text('#include "ferry/compat/math_constants.h"\n#include <cstdio>\nint main() {\n' +
                   "".join(f'  std::printf("{n} %.17g\\n", (double)({n}));\n' for n in names) + "}\n")
    hip_compile(hipcc, src, inc, tmp / "math_check", link=True)
    got = dict(line.split() for line in run([str(tmp / "math_check")]).stdout.splitlines())
    if set(got) != set(names):
        raise SystemExit(f"FAIL: math constants printed {len(got)} of {len(names)}")
    cuda_h = Path("/usr/local/cuda/include/math_constants.h")
    if not cuda_h.exists():
        print(f"math_constants: {len(names)} constants compiled (no CUDA toolkit: values not compared)")
        return
    # CUDA's definitions, with the bit-pattern spellings evaluated here.
    special = {"__int_as_float(0x7f800000U)": float("inf"), "__int_as_float(0x7fffffffU)": float("nan"),
               "__int_as_float(0x00000001U)": 1.401298464324817e-45, "__int_as_float(0x7f7fffffU)": 3.4028234663852886e+38,
               "__int_as_float(0x80000000U)": -0.0, "__longlong_as_double(0x7ff0000000000000ULL)": float("inf"),
               "__longlong_as_double(0xfff8000000000000ULL)": float("nan"),
               "__longlong_as_double(0x8000000000000000ULL)": -0.0,
               "__longlong_as_double(0x0000000000000001ULL)": 5e-324}
    cuda = {}
    for m in re.finditer(r"^#define CUDART_(\w+)\s+(.+?)\s*$", cuda_h.read_text(), re.M):
        cuda[m.group(1)] = m.group(2)
    import math
    import struct
    bad = []
    for n in names:
        text = cuda.get(n[len("HIP_"):])
        if text is None:
            bad.append(f"{n}: no CUDART_{n[4:]} in {cuda_h}")
            continue
        if text in special:
            want = special[text]
        elif n == "HIP_REMQUO_MASK_F":
            want = float(~((~0 & 0xffffffff) << 3) & 0xffffffff)
        else:
            lit = text.strip("()").rstrip("FfUu")
            want = float(lit)
            if text.rstrip(")").endswith(("F", "f")):  # a float constant: rounded to float
                want = struct.unpack("<f", struct.pack("<f", want))[0]
        have = float(got[n])
        if not ((math.isnan(want) and math.isnan(have)) or (have == want and math.copysign(1, have) == math.copysign(1, want))):
            bad.append(f"{n}: {have!r}, CUDA's CUDART_{n[4:]} is {want!r}")
    if bad:
        raise SystemExit("FAIL: math constants:\n" + "\n".join(bad))
    print(f"math_constants: {len(names)} constants equal CUDA's math_constants.h values")


def test_memloc(hipcc, inc, tmp, names):
    src = tmp / "memloc_check.hip"
    src.write_text('#include "ferry/compat/memloc.h"\n#include <cstdio>\nint main() {\n'
                   '  std::printf("%d %d %d\\n", (int)hipMemLocationTypeHost, (int)hipMemLocationTypeHostNuma,\n'
                   "              (int)hipMemLocationTypeHostNumaCurrent);\n"
                   "  hipMemLocation l = {};\n  l.type = hipMemLocationTypeHost;\n  return l.type == hipMemLocationTypeDevice;\n}\n")
    hip_compile(hipcc, src, inc, tmp / "memloc_check", link=True)
    out = run([str(tmp / "memloc_check")]).stdout.split()
    if out != ["2", "3", "4"]:
        raise SystemExit(f"FAIL: memory location types {out}, CUDA's are 2 3 4")
    assert set(names) == {"hipMemLocationTypeHost", "hipMemLocationTypeHostNuma", "hipMemLocationTypeHostNumaCurrent"}
    print("memloc: the three host location types compile and have CUDA's values")


# ---- directed rounding: an exact oracle (Python fractions) ----------------------------------------
FORMATS = {"f": (24, -126, 127), "d": (53, -1022, 1023)}  # precision, emin, emax


def floor_log2(x):
    """e with 2**e <= x < 2**(e+1), for a positive Fraction."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if Fraction(2) ** e > x:
        e -= 1
    elif Fraction(2) ** (e + 1) <= x:
        e += 1
    return e


def bits_value(bits, fmt):
    """The float (as a Fraction, or 'nan', or +-inf as floats) of a bit pattern."""
    if fmt == "f":
        v = struct.unpack("<f", struct.pack("<I", bits))[0]
    else:
        v = struct.unpack("<d", struct.pack("<Q", bits))[0]
    return v


def to_bits(v, fmt):
    return struct.unpack("<I", struct.pack("<f", v))[0] if fmt == "f" else struct.unpack("<Q", struct.pack("<d", v))[0]


def round_dir(x, fmt, mode, zero_sign=1):
    """x (a Fraction) rounded to the format in mode rd/ru/rz, as a Python float (exact)."""
    p, emin, emax = FORMATS[fmt]
    if x == 0:
        return math.copysign(0.0, zero_sign)
    sign = 1 if x > 0 else -1
    a = abs(x)
    k = max(floor_log2(a), emin) - (p - 1)
    q = a / Fraction(2) ** k
    fl = q.numerator // q.denominator
    inexact = Fraction(fl) != q
    away = (mode == "ru" and sign > 0) or (mode == "rd" and sign < 0)
    m = fl + (1 if (away and inexact) else 0)
    mag = Fraction(m) * Fraction(2) ** k
    largest = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if mag > largest:
        return sign * math.inf if away else sign * float(largest)
    if mag == 0:
        return math.copysign(0.0, sign)
    return sign * float(mag)


def sqrt_dir(a, fmt, mode):
    """sqrt(a) (a > 0, a Fraction) rounded in mode."""
    p, emin, _ = FORMATS[fmt]
    k = max(floor_log2(a) // 2, emin) - (p - 1)
    y = a / Fraction(4) ** k
    fl = math.isqrt(y.numerator // y.denominator)
    exact = Fraction(fl * fl) * Fraction(4) ** k == a
    m = fl + (0 if exact or mode != "ru" else 1)
    return float(Fraction(m) * Fraction(2) ** k)


def rounding_expected(op, fmt, mode, args):
    """CUDA's result for __<op>_<mode> (IEEE 754 directed rounding) or None for NaN."""
    vals = [bits_value(b, fmt) for b in args]
    if any(math.isnan(v) for v in vals):
        return None
    if op in ("add", "sub"):
        a, b = vals[0], (-vals[1] if op == "sub" else vals[1])
        if math.isinf(a) or math.isinf(b):
            return None if (math.isinf(a) and math.isinf(b) and a != b) else (a if math.isinf(a) else b)
        x = Fraction(a) + Fraction(b)
        if x == 0:
            both_neg = math.copysign(1, a) < 0 and math.copysign(1, b) < 0
            both_pos = math.copysign(1, a) > 0 and math.copysign(1, b) > 0
            return -0.0 if both_neg or (mode == "rd" and not both_pos) else 0.0
        return round_dir(x, fmt, mode)
    if op == "mul":
        a, b = vals
        sgn = -1 if (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0) else 1
        if math.isinf(a) or math.isinf(b):
            return None if (a == 0 or b == 0) else sgn * math.inf
        return round_dir(Fraction(a) * Fraction(b), fmt, mode, sgn)
    if op in ("div", "rcp"):
        a, b = (vals[0], vals[1]) if op == "div" else (1.0, vals[0])
        sgn = -1 if (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0) else 1
        if (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
            return None
        if math.isinf(a) or b == 0:
            return sgn * math.inf
        if math.isinf(b) or a == 0:
            return math.copysign(0.0, sgn)
        return round_dir(Fraction(a) / Fraction(b), fmt, mode, sgn)
    if op == "sqrt":
        a = vals[0]
        if a == 0 or a == math.inf:
            return a
        if a < 0:
            return None
        return sqrt_dir(Fraction(a), fmt, mode)
    if op == "fma":
        a, b, c = vals
        if any(math.isinf(v) for v in vals):
            return None  # the test's inputs keep fma finite
        x = Fraction(a) * Fraction(b) + Fraction(c)
        if x == 0:
            p_neg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
            p_zero_sign = -1 if p_neg else 1
            prod_zero = a == 0 or b == 0
            c_neg = math.copysign(1, c) < 0
            both_neg = prod_zero and p_zero_sign < 0 and c == 0 and c_neg
            both_pos = prod_zero and p_zero_sign > 0 and c == 0 and not c_neg
            return -0.0 if both_neg or (mode == "rd" and not both_pos) else 0.0
        return round_dir(x, fmt, mode)
    raise ValueError(op)


ROUNDING_OPS = {  # CUDA name stem: (our op, format, arity)
    "__fadd": ("add", "f", 2), "__fsub": ("sub", "f", 2), "__fmul": ("mul", "f", 2), "__fdiv": ("div", "f", 2),
    "__frcp": ("rcp", "f", 1), "__fsqrt": ("sqrt", "f", 1), "__fmaf": ("fma", "f", 3),
    "__dadd": ("add", "d", 2), "__dsub": ("sub", "d", 2), "__dmul": ("mul", "d", 2), "__ddiv": ("div", "d", 2),
    "__drcp": ("rcp", "d", 1), "__dsqrt": ("sqrt", "d", 1),
}


def rounding_inputs(fmt, arity, count, rng):
    """Bit patterns: specials, random patterns over the whole range (subnormals, overflow), near
    cancellations, and operands a few ulps apart."""
    width = 32 if fmt == "f" else 64
    specials = [0.0, -0.0, 1.0, -1.0, 3.0, 0.1, math.inf, -math.inf, math.nan,
                (3.4028234663852886e38 if fmt == "f" else 1.7976931348623157e308),
                (1.1754943508222875e-38 if fmt == "f" else 2.2250738585072014e-308),
                (1.401298464324817e-45 if fmt == "f" else 5e-324)]
    specials = [to_bits(v, fmt) for v in specials] + [to_bits(-v, fmt) for v in specials]
    out = []
    for i in range(count):
        if i < len(specials) ** min(arity, 2) and arity <= 2:
            t = [specials[i % len(specials)], specials[(i // len(specials)) % len(specials)]][:arity]
        else:
            kind = rng.randrange(4)
            t = []
            for _ in range(arity):
                if kind == 0:
                    t.append(rng.getrandbits(width))  # anywhere, NaNs included
                else:  # moderate exponents, so that results are mostly finite and inexact
                    v = rng.uniform(1, 2) * 2.0 ** rng.randint(-60 if kind == 1 else -6, 60 if kind == 1 else 6)
                    t.append(to_bits(v if rng.random() < 0.5 else -v, fmt))
            if kind == 3 and arity >= 2:  # b close to -a: cancellation, exact zeros
                t[1] = to_bits(-bits_value(t[0], fmt) * (1 + rng.choice([0, 2.0 ** -rng.randint(1, 30)])), fmt)
        if fmt == "f" and arity == 3 and any(math.isinf(bits_value(x, fmt)) or math.isnan(bits_value(x, fmt)) for x in t):
            t = [to_bits(1.5, fmt), to_bits(-0.75, fmt), t[2] if math.isfinite(bits_value(t[2], fmt)) else to_bits(2.0, fmt)]
        out.append(t)
    return out


def test_rounding(hipcc, inc, tmp, names):
    """Every directed-rounding intrinsic of rounding.h, on the host (hipcc's host code, the same
    __host__ __device__ functions the device runs), against an exact rational oracle."""
    stems = sorted({n.rsplit("_", 1)[0] for n in names})
    assert stems == sorted(ROUNDING_OPS), stems
    rng = random.Random(1234)
    cases = []  # (name, fmt, args)
    for stem, (op, fmt, arity) in sorted(ROUNDING_OPS.items()):
        for args in rounding_inputs(fmt, arity, 1500, rng):
            for mode in ("rd", "ru", "rz"):
                cases.append((f"{stem}_{mode}", op, fmt, mode, args))
    # One table of inputs per function and one loop: the program stays small to compile.
    lines = ['#include "ferry/compat/rounding.h"', "#include <cstdio>", "#include <cstring>", "#include <cstdint>",
             "static float F(uint64_t b) { float f; uint32_t w = (uint32_t)b; std::memcpy(&f, &w, 4); return f; }",
             "static double D(uint64_t b) { double d; std::memcpy(&d, &b, 8); return d; }",
             "static unsigned long long B(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }",
             "static unsigned long long B(double d) { uint64_t b; std::memcpy(&b, &d, 8); return b; }"]
    groups = {}
    for name, op, fmt, mode, args in cases:
        groups.setdefault(name, (fmt, len(args), []))[2].append(args)
    body = []
    for gi, (name, (fmt, arity, rows)) in enumerate(groups.items()):
        flat = ", ".join(f"0x{a:x}ull" for row in rows for a in row)
        lines.append(f"static const uint64_t in{gi}[] = {{{flat}}};")
        conv = "F" if fmt == "f" else "D"
        call = ", ".join(f"{conv}(in{gi}[i * {arity} + {k}])" for k in range(arity))
        body.append(f"  for (int i = 0; i < {len(rows)}; ++i) std::printf(\"%llx\\n\", B({name}({call})));")
    lines.append("int main() {")
    lines += body
    lines.append("  return 0;\n}")
    src = tmp / "rounding_check.hip"
    src.write_text("\n".join(lines) + "\n")
    hip_compile(hipcc, src, inc, tmp / "rounding_check", link=True)
    dev = tmp / "rounding_device.hip"
    dev.write_text('#include "ferry/compat/rounding.h"\n__global__ void k(float* f, double* d) {\n'
                   + "".join(f"  f[0] += {n}(f[1], f[2]);\n" for n in names if n.startswith(("__fadd", "__fsub", "__fmul", "__fdiv")))
                   + "".join(f"  f[0] += {n}(f[1]);\n" for n in names if n.startswith(("__frcp", "__fsqrt")))
                   + "".join(f"  f[0] += {n}(f[1], f[2], f[3]);\n" for n in names if n.startswith("__fmaf"))
                   + "".join(f"  d[0] += {n}(d[1], d[2]);\n" for n in names if n.startswith(("__dadd", "__dsub", "__dmul", "__ddiv")))
                   + "".join(f"  d[0] += {n}(d[1]);\n" for n in names if n.startswith(("__drcp", "__dsqrt")))
                   + "}\n")
    hip_compile(hipcc, dev, inc, tmp / "rounding_device.o", link=False)
    out = run([str(tmp / "rounding_check")]).stdout.split()
    cases = [c for name in groups for c in cases if c[0] == name]
    if len(out) != len(cases):
        raise SystemExit(f"FAIL: rounding_check printed {len(out)} results for {len(cases)} cases")
    bad = []
    for (name, op, fmt, mode, args), got_hex in zip(cases, out):
        want = rounding_expected(op, fmt, mode, args)
        got = bits_value(int(got_hex, 16), fmt)
        if want is None:
            ok = math.isnan(got)
        else:
            ok = int(got_hex, 16) == to_bits(want, fmt)
        if not ok:
            bad.append(f"{name}({', '.join(hex(a) for a in args)}) = {got!r}, want {want!r}")
    if bad:
        raise SystemExit(f"FAIL: {len(bad)} of {len(cases)} directed roundings differ, e.g.\n" + "\n".join(bad[:12]))
    print(f"rounding: {len(cases)} directed roundings (13 operations x rd/ru/rz; specials, subnormals, "
          "overflow, cancellations) equal the exact rational oracle bit for bit; compiled for gfx906")


def test_drv_error(hipcc, inc, tmp, names):
    src = tmp / "drv_check.hip"
    src.write_text('#include "ferry/compat/drv_error.h"\n#include <cstdio>\n#include <cstring>\nint main() {\n'
                   "  for (hipError_t e : {hipSuccess, hipErrorInvalidValue, hipErrorOutOfMemory, hipErrorNotReady}) {\n"
                   "    const char *n = nullptr, *s = nullptr;\n"
                   "    if (hipDrvGetErrorName(e, &n) != hipSuccess || hipDrvGetErrorString(e, &s) != hipSuccess) return 1;\n"
                   "    if (std::strcmp(n, hipGetErrorName(e)) || std::strcmp(s, hipGetErrorString(e))) return 2;\n  }\n"
                   "  return hipDrvGetErrorString(hipSuccess, nullptr) == hipErrorInvalidValue ? 0 : 3;\n}\n")
    hip_compile(hipcc, src, inc, tmp / "drv_check", link=True)
    rc = run([str(tmp / "drv_check")]).returncode
    if rc != 0:
        raise SystemExit(f"FAIL: drv_error check exited {rc}")
    assert set(names) == {"hipDrvGetErrorName", "hipDrvGetErrorString"}, names
    print("drv_error: hipDrvGetErrorName/String answer what hipGetErrorName/String do")


def test_minmax(hipcc, inc, tmp, names):
    """CUDA's results: a mixed call is computed in the usual arithmetic conversions' type."""
    src = tmp / "minmax_check.hip"
    src.write_text('#include "ferry/compat/minmax.h"\n#include <cstdio>\n#include <cmath>\n'
                   "__global__ void k(unsigned* o, unsigned r, long l, unsigned long long u) {\n"
                   "  o[0] = min(r, blockDim.x) + max(r, threadIdx.x) + (unsigned)min(l, 2L) + (unsigned)max(u, 3ull)\n"
                   "         + umin(r, 1u) + umax(r, 1u) + (unsigned)llmin(l, 1LL) + (unsigned)llmax(l, 1LL)\n"
                   "         + (unsigned)ullmin(u, 1ull) + (unsigned)ullmax(u, 1ull);\n}\n"
                   "int main() {\n"
                   "  unsigned big = 4000000000u; long neg = -5; unsigned long long h = 1ull << 40;\n"
                   "  std::printf(\"%u %u %ld %llu %lld %lld %llu %llu %u %u %g %g %g\\n\",\n"
                   "    min(big, 3u), max(-1, 1u), min(neg, 7L), max(h, 2ull), llmin(-3LL, 2LL), llmax(-3LL, 2LL),\n"
                   "    ullmin(h, 5ull), ullmax(h, 5ull), umin(big, 9u), umax(big, 9u), min(1.5f, 0.25),\n"
                   "    max(NAN, 2.0f), min(2.0, (float)NAN));\n  return 0;\n}\n")
    hip_compile(hipcc, src, inc, tmp / "minmax_check", link=True)
    out = run([str(tmp / "minmax_check")]).stdout.split()
    # max(-1, 1u) is an unsigned max (-1 -> 4294967295), as in CUDA; NaN gives the other operand.
    want = ["3", "4294967295", "-5", str(1 << 40), "-3", "2", "5", str(1 << 40), "9", "4000000000", "0.25", "2", "2"]
    if out != want:
        raise SystemExit(f"FAIL: minmax {out}, CUDA's results are {want}")
    assert set(names) == {"umin", "umax", "llmin", "llmax", "ullmin", "ullmax"}, names
    print("minmax: unsigned, 64-bit and mixed min/max, umin and friends give CUDA's results")


def test_ctx_params(hipcc, inc, tmp, names):
    """The migrated call (parameters dropped) and the type compile together."""
    migrated = (inc / "needs_all.cu").read_text()
    # the spelling record of a many-to-one name (rewrite/roundtrip_record.h) may follow the name
    # the dropped parameter is kept as an argument record for the way back: `/* ferry-cuda: &prm, */`
    if not re.search(r"hipCtxCreate(?: /\* ferry-cuda: \w+ \*/)?\(&c, (?:/\* ferry-cuda: &prm, \*/ )?0, d\)",
                     migrated):
        raise SystemExit("FAIL: cuCtxCreate(&c, &prm, 0, d) did not become hipCtxCreate(&c, 0, d)")
    src = tmp / "ctx_check.hip"
    src.write_text('#include <hip/hip_runtime.h>\n#include "ferry/compat/ctx_params.h"\n'
                   "hipCtx_t make(hipDevice_t d) { CUctxCreateParams p = {}; (void)p; hipCtx_t c;\n"
                   "  return hipCtxCreate(&c, 0, d) == hipSuccess ? c : nullptr; }\n")
    hip_compile(hipcc, src, inc, tmp / "ctx_check.o", link=False)
    assert set(names) == {"CUctxCreateParams"}, names
    print("ctx_params: CUctxCreateParams compiles beside hipCtxCreate(ctx, flags, dev)")


def test_gl_interop(hipcc, inc, tmp):
    """cuda_gl_interop.h becomes ferry/compat/gl_interop.h, whose HIP 5.2 branch declares the GL API."""
    migrated = (inc / "needs_all.cu").read_text()
    if '#include "ferry/compat/gl_interop.h"' not in migrated or "hip_gl_interop.h" in migrated:
        raise SystemExit("FAIL: cuda_gl_interop.h did not become ferry/compat/gl_interop.h for HIP 5.2")
    src = tmp / "gl_check.hip"
    src.write_text('#include "ferry/compat/gl_interop.h"\n'
                   "hipError_t reg(hipGraphicsResource** r, GLuint b) {\n"
                   "  unsigned n = 0; int d = 0; (void)hipGLGetDevices(&n, &d, 1, hipGLDeviceListAll);\n"
                   "  return hipGraphicsGLRegisterBuffer(r, b, hipGraphicsRegisterFlagsNone); }\n")
    hip_compile(hipcc, src, inc, tmp / "gl_check.o", link=False)
    print("gl_interop: hipGraphicsGLRegisterBuffer and hipGLGetDevices compile through the compat header")


FP16_ATOMIC_RUN = r"""#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <cstdio>
#include "ferry/compat/fp16_atomic.h"
#define BLOCKS 24
#define THREADS 80
// Every thread of every block adds into the same four halves (two share one 32-bit word, so the
// loop must keep the neighbour intact) and into one __half2; `seen` records each old value of
// counter 0, which must be every integer 0 .. BLOCKS*THREADS-1 once (values are exact in half).
__global__ void add(__half* h, __half2* h2, unsigned* seen) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const __half old = atomicAdd(&h[0], __float2half(1.0f));
  atomicAdd(&seen[(unsigned)__half2float(old)], 1u);
  atomicAdd(&h[1], __float2half(0.5f));
  atomicAdd(&h[2], __float2half((t % 2) * 0.5f));
  atomicAdd(&h[3], __float2half(-0.125f));
  atomicAdd(h2, __floats2half2_rn(0.25f, -1.0f));
}
int main() {
  const int n = BLOCKS * THREADS;
  __half *h; __half2 *h2; unsigned *seen;
  hipMalloc(&h, 4 * sizeof(__half)); hipMalloc(&h2, sizeof(__half2)); hipMalloc(&seen, n * sizeof(unsigned));
  hipMemset(h, 0, 4 * sizeof(__half)); hipMemset(h2, 0, sizeof(__half2)); hipMemset(seen, 0, n * sizeof(unsigned));
  add<<<BLOCKS, THREADS>>>(h, h2, seen);
  hipDeviceSynchronize();
  __half hh[4]; __half2 hh2; unsigned* s = new unsigned[n];
  hipMemcpy(hh, h, sizeof hh, hipMemcpyDeviceToHost); hipMemcpy(&hh2, h2, sizeof hh2, hipMemcpyDeviceToHost);
  hipMemcpy(s, seen, n * sizeof(unsigned), hipMemcpyDeviceToHost);
  unsigned once = 0;
  for (int i = 0; i < n; ++i) once += s[i] == 1;
  printf("%g %g %g %g %g %g %u\n", __half2float(hh[0]), __half2float(hh[1]), __half2float(hh[2]),
         __half2float(hh[3]), __low2float(hh2), __high2float(hh2), once);
  return 0;
}
"""


TILE_SHFL_RUN = r"""#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <cstdio>
#include "ferry/compat/tile_shfl.h"
namespace cg = cooperative_groups;
#define BLOCKS 3
#define THREADS 128
struct pair16 { short a, b; int c; };
// Every shuffle of ferry/compat/tile_shfl.h on tiles of 32 and 16 lanes, with values of 16
// (uint4), 8 (float2) and 8 (a struct) bytes; the host checks every lane against the source lane
// CUDA's thread_block_tile::shfl* would read (its rank arithmetic, written out below).
__host__ __device__ uint4 u4(unsigned t) { return make_uint4(t, t * 3u, ~t, t ^ 0x5a5au); }
__global__ void k(uint4* a, float2* b, uint4* c, pair16* d) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const auto block = cg::this_thread_block();
  const auto t32 = cg::tiled_partition<32>(block);
  const auto t16 = cg::tiled_partition<16>(block);
  a[t] = ferry_tile_shfl_xor(t32, u4(t), 5u);
  b[t] = ferry_tile_shfl_down(t16, make_float2(t * 0.5f, -(float)t), 3u);
  c[t] = ferry_tile_shfl_up(t32, u4(t), 7u);
  pair16 p = {(short)t, (short)-t, (int)(t * 7u)};
  d[t] = ferry_tile_shfl(t16, p, 9);
}
bool same(uint4 x, unsigned s) { uint4 w = u4(s); return x.x == w.x && x.y == w.y && x.z == w.z && x.w == w.w; }
int main() {
  const unsigned n = BLOCKS * THREADS;
  uint4 *a, *c; float2* b; pair16* d;
  hipMalloc(&a, n * sizeof(uint4)); hipMalloc(&b, n * sizeof(float2)); hipMalloc(&c, n * sizeof(uint4));
  hipMalloc(&d, n * sizeof(pair16));
  k<<<BLOCKS, THREADS>>>(a, b, c, d);
  hipDeviceSynchronize();
  uint4* ha = new uint4[n]; float2* hb = new float2[n]; uint4* hc = new uint4[n]; pair16* hd = new pair16[n];
  hipMemcpy(ha, a, n * sizeof(uint4), hipMemcpyDeviceToHost); hipMemcpy(hb, b, n * sizeof(float2), hipMemcpyDeviceToHost);
  hipMemcpy(hc, c, n * sizeof(uint4), hipMemcpyDeviceToHost); hipMemcpy(hd, d, n * sizeof(pair16), hipMemcpyDeviceToHost);
  unsigned bad = 0;
  for (unsigned t = 0; t < n; ++t) {
    const unsigned r32 = t % 32, r16 = t % 16, base32 = t - r32, base16 = t - r16;
    bad += !same(ha[t], base32 + (r32 ^ 5u));
    const unsigned sb = r16 + 3 < 16 ? t + 3 : t;
    bad += !(hb[t].x == sb * 0.5f && hb[t].y == -(float)sb);
    bad += !same(hc[t], r32 >= 7 ? t - 7 : t);
    const unsigned sd = base16 + 9;
    bad += !(hd[t].a == (short)sd && hd[t].b == (short)-sd && hd[t].c == (int)(sd * 7u));
  }
  printf("%u %u\n", n, bad);
  return 0;
}
"""


def test_tile_shfl(hipcc, inc, tmp):
    """ferry_tile_shfl* (a tile shuffle of a vector or struct value, which HIP's member refuses):
    the migrated call compiles for gfx906, and every shuffle runs on the CPU wave64 runtime with
    the lanes CUDA's member reads, on tiles of 32 and 16 of 64-lane wavefronts."""
    migrated = (inc / "needs_all.cu").read_text()
    if '#include "ferry/compat/tile_shfl.h"' not in migrated or "ferry_tile_shfl_xor(t, x, 1)" not in migrated:
        raise SystemExit("FAIL: a tile shuffle of a float2 did not become ferry_tile_shfl_xor from ferry/compat/tile_shfl.h")
    src = tmp / "tile_shfl_run.hip"
    src.write_text(TILE_SHFL_RUN)
    hip_compile(hipcc, src, inc, tmp / "tile_shfl_run.o", link=False)
    p = run([FERRY, "wave64", "run", str(src), "-I", str(inc)], timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: ferry wave64 run tile_shfl_run.hip exited {p.returncode}:\n{p.stdout}\n{p.stderr[-4000:]}")
    n, bad = (int(x) for x in p.stdout.split())
    if n != 3 * 128 or bad != 0:
        raise SystemExit(f"FAIL: tile shuffles on wave64: {bad} wrong lane results of {n} threads x 4")
    print(f"tile_shfl: {n} threads x 4 shuffles (uint4, float2, struct; tiles of 32 and 16) match CUDA's lanes on wave64")


DEVICE_PROP_RUN = r"""#include <hip/hip_runtime.h>
#include <cstdio>
#include "ferry/compat/device_prop.h"
int main() {
  hipDeviceProp_t prop = {};
  int count = 0;
  const bool gpu = hipGetDeviceCount(&count) == hipSuccess && count > 0;
  if (gpu) (void)hipGetDeviceProperties(&prop, 0);
  printf("%d %d %d %d\n", gpu ? 1 : 0, ferry_device_attribute(prop, hipDeviceAttributeAsyncEngineCount),
         ferry_device_attribute(prop, hipDeviceAttributeUnifiedAddressing),
         ferry_device_attribute(prop, hipDeviceAttributeSharedMemPerBlockOptin));
  return 0;
}
"""


def test_device_prop(hipcc, inc, tmp):
    """ferry_device_attribute (cudaDeviceProp members HIP 5.2's hipDeviceProp_t lacks, read through
    the device attribute): the migrated read compiles for gfx906; linked against the real HIP
    runtime and run here, where HIP finds no device, every read is 0 and the refusal is reported
    on stderr once. With a GPU, the values are whatever HIP answers."""
    migrated = (inc / "needs_all.cu").read_text()
    if "ferry_device_attribute(p, hipDeviceAttributeAsyncEngineCount)" not in migrated:
        raise SystemExit("FAIL: p.asyncEngineCount for HIP 5.2 did not become ferry_device_attribute(...)")
    src = tmp / "device_prop_run.hip"
    src.write_text(DEVICE_PROP_RUN)
    exe = tmp / "device_prop_run"
    hip_compile(hipcc, src, inc, exe, link=True)
    p = run([str(exe)], timeout=120)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: device_prop_run exited {p.returncode}:\n{p.stdout}\n{p.stderr[-2000:]}")
    gpu, *values = (int(x) for x in p.stdout.split())
    if gpu:
        print(f"device_prop: a GPU answered {values}")
        return
    reports = [l for l in p.stderr.splitlines() if l.startswith("ferry/compat/device_prop.h:")]
    if values != [0, 0, 0] or len(reports) != 1:
        raise SystemExit(f"FAIL: device_prop without a device: values {values}, stderr reports {reports}")
    print("device_prop: compiles for gfx906; without a device every read is 0, reported once on stderr")


def test_fp16_atomic(hipcc, inc, tmp):
    """atomicAdd(__half*) / atomicAdd(__half2*): compiles for gfx906 beside HIP's own atomicAdd
    overloads, and runs on the CPU wave64 runtime with CUDA's results (the old value returned,
    neighbours in the same word untouched, every add applied once)."""
    migrated = (inc / "needs_all.cu").read_text()
    if '#include "ferry/compat/fp16_atomic.h"' not in migrated:
        raise SystemExit("FAIL: a file calling atomicAdd on __half did not get ferry/compat/fp16_atomic.h")
    src = tmp / "fp16_atomic_run.hip"
    src.write_text(FP16_ATOMIC_RUN)
    hip_compile(hipcc, src, inc, tmp / "fp16_atomic_run.o", link=False)
    chk = tmp / "fp16_atomic_overloads.hip"
    chk.write_text('#include "ferry/compat/fp16_atomic.h"\n'
                   "__global__ void k(int* i, float* f, double* d, unsigned long long* u, __half* h, float v) {\n"
                   "  atomicAdd(i, 1); atomicAdd(f, 1.f); atomicAdd(d, 1.0); atomicAdd(u, 1ull); atomicAdd(h, v); }\n")
    hip_compile(hipcc, chk, inc, tmp / "fp16_atomic_overloads.o", link=False)
    p = run([FERRY, "wave64", "run", str(src), "-I", str(inc)], timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: ferry wave64 run fp16_atomic_run.hip exited {p.returncode}:\n{p.stdout}\n{p.stderr[-4000:]}")
    n = 24 * 80
    # Host reference: the same sums, exact in half precision (integers and quarters below 2048).
    want = [float(n), n * 0.5, sum((t % 2) * 0.5 for t in range(n)), n * -0.125, n * 0.25, -float(n), n]
    got = [float(x) for x in p.stdout.split()]
    if got != want:
        raise SystemExit(f"FAIL: half atomicAdd on wave64: got {got}, want {want}")
    print(f"fp16_atomic: {n} threads x 6 atomics on the wave64 runtime match the host reference; "
          "every old value seen once")


PTX_ATOMIC64_RUN = r"""#include <hip/hip_runtime.h>
#include <cstdio>
#include "ferry/compat/ptx.h"
#include "ferry/compat/atomic64.h"
#define N 256
// bfe/bfi (ferry/compat/ptx.h) over positions and lengths 0..255 in steps that cross every edge
// (0, 1, 31, 32, 33, 63, 64, 65, 200, 255), for 32- and 64-bit, signed and unsigned; and
// atomicMin/atomicMax on long long (atomic64.h) from every thread of 8 blocks.
__constant__ unsigned kEdge[10] = {0, 1, 31, 32, 33, 63, 64, 65, 200, 255};
__global__ void bits(const unsigned long long* a, unsigned long long* out) {
  const unsigned t = threadIdx.x;  // 100 threads: (pos, len) pairs
  const unsigned p = kEdge[t / 10], l = kEdge[t % 10];
  for (int k = 0; k < 4; ++k) {
    const unsigned long long x = a[k];
    unsigned long long* o = out + (t * 4 + k) * 6;
    o[0] = ferry_ptx_bfe_u32((unsigned)x, p, l);
    o[1] = (unsigned)ferry_ptx_bfe_s32((int)(unsigned)x, p, l);
    o[2] = ferry_ptx_bfe_u64(x, p, l);
    o[3] = (unsigned long long)ferry_ptx_bfe_s64((long long)x, p, l);
    o[4] = ferry_ptx_bfi_b32((unsigned)x, 0x89abcdefu, p, l);
    o[5] = ferry_ptx_bfi_b64(x, 0x0123456789abcdefull, p, l);
  }
}
__global__ void ext(long long* lo, long long* hi, unsigned* count) {
  const long long v = ((long long)(blockIdx.x * blockDim.x + threadIdx.x) - 1000) * 7919LL * 1000003LL;
  atomicMin(lo, v);
  if (atomicMax(hi, v) < v) atomicAdd(count, 1u);
}
int main() {
  const unsigned long long in[4] = {0xf0e1d2c3b4a59687ull, 0x0123456789abcdefull, 0x8000000000000001ull, 0x7fffffff80000000ull};
  unsigned long long *a, *o;
  hipMalloc(&a, sizeof in); hipMalloc(&o, 100 * 4 * 6 * sizeof(unsigned long long));
  hipMemcpy(a, in, sizeof in, hipMemcpyHostToDevice);
  bits<<<1, 100>>>(a, o);
  long long *lo, *hi; unsigned* count;
  const long long init_lo = 0, init_hi = 0;
  hipMalloc(&lo, 8); hipMalloc(&hi, 8); hipMalloc(&count, 4);
  hipMemcpy(lo, &init_lo, 8, hipMemcpyHostToDevice); hipMemcpy(hi, &init_hi, 8, hipMemcpyHostToDevice); hipMemset(count, 0, 4);
  ext<<<8, N>>>(lo, hi, count);
  hipDeviceSynchronize();
  static unsigned long long r[100 * 4 * 6];
  hipMemcpy(r, o, sizeof r, hipMemcpyDeviceToHost);
  for (unsigned i = 0; i < 100 * 4 * 6; ++i) printf("%llx\n", r[i]);
  long long l, h; unsigned c;
  hipMemcpy(&l, lo, 8, hipMemcpyDeviceToHost); hipMemcpy(&h, hi, 8, hipMemcpyDeviceToHost); hipMemcpy(&c, count, 4, hipMemcpyDeviceToHost);
  printf("%lld %lld %u\n", l, h, c);
  return 0;
}
"""


def ptx_bfe(a, pos, ln, bits, signed):
    """PTX ISA bfe: pos, len mod 256; bits past the top read as the sign bit; len 0 gives 0."""
    pos &= 0xff; ln &= 0xff
    a &= (1 << bits) - 1
    if ln == 0:
        return 0
    sbit = (a >> min(pos + ln - 1, bits - 1)) & 1 if signed else 0
    d = 0
    for i in range(bits):
        b = (a >> (pos + i)) & 1 if (i < ln and pos + i < bits) else sbit
        d |= b << i
    return d


def ptx_bfi(a, b, pos, ln, bits):
    pos &= 0xff; ln &= 0xff
    d = b
    for i in range(ln):
        if pos + i >= bits:
            break
        d = (d & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
    return d & ((1 << bits) - 1)


def test_ptx_atomic64(hipcc, inc, tmp):
    """ferry/compat/ptx.h's bfe/bfi against the PTX ISA's definitions (a Python reference, every
    edge of position and length), and atomic64.h's atomicMin/atomicMax on long long from 2048
    threads, on the CPU wave64 runtime; both compile for gfx906."""
    migrated = (inc / "needs_all.cu").read_text()
    for h in ("ptx.h", "atomic64.h", "fp16_shfl.h"):
        if f'#include "ferry/compat/{h}"' not in migrated:
            raise SystemExit(f"FAIL: needs_all.cu did not get ferry/compat/{h}")
    src = tmp / "ptx_atomic64_run.hip"
    src.write_text(PTX_ATOMIC64_RUN)
    hip_compile(hipcc, src, inc, tmp / "ptx_atomic64_run.o", link=False)
    p = run([FERRY, "wave64", "run", str(src), "-I", str(inc)], timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"FAIL: ferry wave64 run ptx_atomic64_run.hip exited {p.returncode}:\n{p.stdout}\n{p.stderr[-4000:]}")
    lines = p.stdout.split("\n")
    edge = [0, 1, 31, 32, 33, 63, 64, 65, 200, 255]
    ins = [0xf0e1d2c3b4a59687, 0x0123456789abcdef, 0x8000000000000001, 0x7fffffff80000000]
    bad = 0
    i = 0
    for t in range(100):
        pos, ln = edge[t // 10], edge[t % 10]
        for x in ins:
            x32 = x & 0xffffffff
            s32 = ptx_bfe(x32, pos, ln, 32, True)
            want = [ptx_bfe(x32, pos, ln, 32, False), s32, ptx_bfe(x, pos, ln, 64, False),
                    ptx_bfe(x, pos, ln, 64, True), ptx_bfi(x32, 0x89abcdef, pos, ln, 32),
                    ptx_bfi(x, 0x0123456789abcdef, pos, ln, 64)]
            for w in want:
                bad += int(lines[i], 16) != w
                i += 1
    vals = [((t - 1000) * 7919 * 1000003) for t in range(8 * 256)]
    lo, hi, _ = lines[i].split()
    if bad or int(lo) != min(min(vals), 0) or int(hi) != max(max(vals), 0):
        raise SystemExit(f"FAIL: ptx.h/atomic64.h on wave64: {bad} of {i} bit-field results differ from the PTX "
                         f"reference; atomicMin {lo} (want {min(min(vals), 0)}), atomicMax {hi} (want {max(max(vals), 0)})")
    print(f"ptx/atomic64: {i} bfe/bfi results equal the PTX ISA reference (positions and lengths at every edge); "
          "atomicMin/atomicMax on long long from 2048 threads right on the wave64 runtime")


def main() -> int:
    hipcc = shutil.which("hipcc")
    if not hipcc:
        print("SKIP: hipcc not installed")
        return SKIP
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    table = {}
    for line in (ROOT / "rules/compat/hip/compat.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            kind, name, header = line.split("\t")
            if kind == "name":
                table.setdefault(header, []).append(name)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        (tmp / "in").mkdir()
        (tmp / "in" / "needs_all.cu").write_text(NEEDS_ALL)
        p = run([FERRY, "migrate", str(tmp / "in"), "-o", str(tmp / "out"), "--to", "hip", "--hip-version", "5.2", "-q"])
        if p.returncode not in (0, 1):
            raise SystemExit(f"FAIL: ferry migrate exited {p.returncode}:\n{p.stderr}")
        inc = tmp / "out"
        written = sorted(x.name for x in (inc / "ferry" / "compat").iterdir())
        want = sorted(f.name for f in (ROOT / "rules/compat/hip").glob("*.h"))
        if written != want:
            raise SystemExit(f"FAIL: ferry wrote {written}, expected every compat header {want}")
        for f in want:
            if (inc / "ferry/compat" / f).read_text() != (ROOT / "rules/compat/hip" / f).read_text():
                raise SystemExit(f"FAIL: ferry/compat/{f} differs from rules/compat/hip/{f}")
        test_simd(hipcc, inc, tmp, table["simd"])
        test_dot(hipcc, inc, tmp)
        test_bf16(hipcc, nvcc, inc, tmp, table["bf16"])
        test_hipsparse(hipcc, inc, tmp, table["hipsparse"])
        test_coop_reduce(hipcc, inc, tmp)
        test_fp16(hipcc, nvcc, inc, tmp, table["fp16"])
        test_fp8(hipcc, nvcc, inc, tmp, table["fp8"])
        test_math_constants(hipcc, inc, tmp, table["math_constants"])
        test_memloc(hipcc, inc, tmp, table["memloc"])
        test_drv_error(hipcc, inc, tmp, table["drv_error"])
        test_minmax(hipcc, inc, tmp, table["minmax"])
        test_ctx_params(hipcc, inc, tmp, table["ctx_params"])
        test_gl_interop(hipcc, inc, tmp)
        test_ptx_atomic64(hipcc, inc, tmp)
        test_fp16_atomic(hipcc, inc, tmp)
        test_tile_shfl(hipcc, inc, tmp)
        test_device_prop(hipcc, inc, tmp)
        test_rounding(hipcc, inc, tmp, table["rounding"])
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
