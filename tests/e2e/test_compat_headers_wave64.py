#!/usr/bin/env python3
"""Ferry's compat headers run on Ferry's CPU wave64 runtime (`ferry wave64 run`, 64-lane wavefronts,
blocks on parallel OS threads): atomicAdd on __half and __half2 (every thread of every block adds into
the same halves, compared with a host reference, and every old value a counter returns is seen
exactly once); ptx.h's bfe/bfi against a PTX-ISA reference and atomic64.h's long long
atomicMin/atomicMax from 2048 threads; the tile shuffles of vector and struct values (tile_shfl.h),
every lane against the source lane CUDA's thread_block_tile::shfl* reads.
Shared set-up: compat_headers_common.py. Skips (77) without hipcc."""

import sys

from compat_headers_common import FERRY, hip_compile, run, signed, main


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


def tests(hipcc, nvcc, inc, tmp, table):
    test_ptx_atomic64(hipcc, inc, tmp)
    test_fp16_atomic(hipcc, inc, tmp)
    test_tile_shfl(hipcc, inc, tmp)


if __name__ == "__main__":
    sys.exit(main(tests))
