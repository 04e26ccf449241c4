// cuda_emu.h - a CPU emulator of the CUDA execution model, for testing kernels without a GPU
// and with a warp width of our choosing (32 as on NVIDIA, 64 as on AMD GCN/CDNA wavefronts).
//
// Kernel headers are compiled unchanged by the host compiler with this directory first on the
// include path (its cuda_runtime.h / cuda_fp16.h include this file). Each thread of a block is a
// fiber (Boost.Context); blocks run one after another, so `__shared__` can be a function-static
// variable and plain stores are atomic. A thread runs until it reaches a barrier:
// `__syncthreads()` releases when every live thread of the block is there, warp operations
// (shuffles, ballots, `__syncwarp`) when every lane of the warp is at the same warp operation.
// Anything else — a warp operation some lanes never reach, lanes at different warp operations, a
// block barrier some threads skip while others wait — is a divergence the hardware would not
// forgive either, and `launch` throws std::runtime_error naming it.
//
// What it does not model: concurrent blocks (no inter-block races), memory ordering, the memory
// spaces (every pointer is host memory), partial shuffle masks (the mask is ignored: every lane
// takes part, which is what HIP does with the masks `ferry migrate` drops), timing.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/context/fiber.hpp>

namespace emu {

struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

enum class Wait { running, block, warp, done };

struct Thread {
  uint3 idx;
  int lane = 0, warp = 0;
  Wait wait = Wait::running;
  long long block_seq = 0, warp_seq = 0;  // barriers passed, to catch lanes at different ones
  const char* site_file = nullptr;        // where the thread waits (file, line)
  int site_line = 0;
  boost::context::fiber self;   // the thread's own fiber, resumed by the scheduler
  boost::context::fiber sched;  // the scheduler, resumed to yield
};

struct Block {
  uint3 idx;
  dim3 dim, grid;
  int warp_size = 32;
  std::vector<Thread> threads;
  std::vector<unsigned char> exchange;  // per warp, 8 bytes per lane: shuffle values
};

inline Block*& current_block() {
  static Block* b = nullptr;
  return b;
}
inline Thread*& current_thread() {
  static Thread* t = nullptr;
  return t;
}
inline Thread& cur() { return *current_thread(); }
inline Block& blk() { return *current_block(); }

inline void yield(Wait why, const char* file, int line) {
  Thread& t = cur();
  t.wait = why;
  t.site_file = file;
  t.site_line = line;
  t.sched = std::move(t.sched).resume();
}

inline void syncthreads(const char* file, int line) {
  yield(Wait::block, file, line);
  ++cur().block_seq;
}
inline void syncwarp(const char* file, int line) {
  yield(Wait::warp, file, line);
  ++cur().warp_seq;
}
inline bool same_site(const Thread& a, const Thread& b) {
  return a.site_line == b.site_line && std::strcmp(a.site_file, b.site_file) == 0;
}
inline std::string site(const Thread& t) { return std::string(t.site_file) + ":" + std::to_string(t.site_line); }

// Value of `v` at lane src(lane) of this warp.
template <class T, class Src>
T exchange(T v, Src src, const char* file, int line) {
  static_assert(sizeof(T) <= 8, "shuffle of more than 8 bytes");
  Block& b = blk();
  Thread& t = cur();
  unsigned char* slots = b.exchange.data() + (size_t)t.warp * b.warp_size * 8;
  std::memcpy(slots + (size_t)t.lane * 8, &v, sizeof(T));
  syncwarp(file, line);
  T r;
  std::memcpy(&r, slots + (size_t)src(t.lane) * 8, sizeof(T));
  syncwarp(file, line);  // nobody overwrites a slot before every lane has read
  return r;
}

inline int segment(int lane, int width) { return lane / width * width; }

template <class T>
T shfl_xor(T v, int mask, int width, const char* file, int line) {
  return exchange(
      v,
      [&](int lane) {
        const int s = lane ^ mask, seg = segment(lane, width);
        return (s >= seg && s < seg + width) ? s : lane;
      },
      file, line);
}
template <class T>
T shfl(T v, int src, int width, const char* file, int line) {
  return exchange(
      v, [&](int lane) { return segment(lane, width) + ((src % width) + width) % width; }, file, line);
}
template <class T>
T shfl_down(T v, unsigned delta, int width, const char* file, int line) {
  return exchange(
      v,
      [&](int lane) {
        const int s = lane + (int)delta;
        return s < segment(lane, width) + width ? s : lane;
      },
      file, line);
}
template <class T>
T shfl_up(T v, unsigned delta, int width, const char* file, int line) {
  return exchange(
      v,
      [&](int lane) {
        const int s = lane - (int)delta;
        return s >= segment(lane, width) ? s : lane;
      },
      file, line);
}
inline unsigned long long ballot(int pred, const char* file, int line) {
  Block& b = blk();
  unsigned long long m = 0;
  std::vector<int> bits(b.warp_size);
  for (int l = 0; l < b.warp_size; ++l)
    bits[l] = exchange(
        pred ? 1 : 0, [l](int) { return l; }, file, line);
  for (int l = 0; l < b.warp_size; ++l)
    if (bits[l]) m |= 1ull << l;
  return m;
}

struct LaunchOptions {
  int warp_size = 32;
  size_t stack_bytes = 256 * 1024;
};

// Runs kernel(args...) over the grid; throws on a divergent barrier.
template <class Kernel, class... Args>
void launch(dim3 grid, dim3 block, const LaunchOptions& opt, Kernel kernel, Args... args) {
  const unsigned n = block.x * block.y * block.z;
  if (n == 0 || n > 1024) throw std::runtime_error("emu: block of " + std::to_string(n) + " threads");
  if (opt.warp_size != 32 && opt.warp_size != 64) throw std::runtime_error("emu: warp size 32 or 64");
  const int warps = (int)((n + opt.warp_size - 1) / opt.warp_size);
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        Block b;
        b.idx = {bx, by, bz};
        b.dim = block;
        b.grid = grid;
        b.warp_size = opt.warp_size;
        b.threads.resize(n);
        b.exchange.assign((size_t)warps * opt.warp_size * 8, 0);
        current_block() = &b;
        for (unsigned i = 0; i < n; ++i) {
          Thread& t = b.threads[i];
          t.idx = {i % block.x, (i / block.x) % block.y, i / (block.x * block.y)};
          t.lane = (int)(i % opt.warp_size);
          t.warp = (int)(i / opt.warp_size);
          t.self = boost::context::fiber(std::allocator_arg, boost::context::fixedsize_stack(opt.stack_bytes),
                                         [&t, &kernel, &args...](boost::context::fiber&& sched) {
                                           t.sched = std::move(sched);
                                           kernel(args...);
                                           t.wait = Wait::done;
                                           return std::move(t.sched);
                                         });
        }
        for (;;) {
          for (Thread& t : b.threads) {
            if (t.wait != Wait::running) continue;
            current_thread() = &t;
            t.self = std::move(t.self).resume();
          }
          current_thread() = nullptr;
          // Every thread is now waiting or done: release what can be released.
          bool released = false, all_done = true;
          for (int w = 0; w < warps; ++w) {
            const unsigned lo = (unsigned)w * opt.warp_size;
            const unsigned hi = std::min(n, lo + (unsigned)opt.warp_size);
            int at_warp = 0;
            for (unsigned i = lo; i < hi; ++i) at_warp += b.threads[i].wait == Wait::warp;
            if (at_warp == 0) continue;
            if (at_warp != (int)(hi - lo))
              throw std::runtime_error("emu: warp " + std::to_string(w) + " of block (" + std::to_string(bx) + "," +
                                       std::to_string(by) + "): a warp operation that not every lane reaches");
            for (unsigned i = lo + 1; i < hi; ++i)
              if (b.threads[i].warp_seq != b.threads[lo].warp_seq || !same_site(b.threads[i], b.threads[lo]))
                throw std::runtime_error("emu: lanes of warp " + std::to_string(w) + " at different warp operations (" +
                                         site(b.threads[lo]) + ")");
            for (unsigned i = lo; i < hi; ++i) b.threads[i].wait = Wait::running;
            released = true;
          }
          if (released) continue;
          int at_block = 0;
          for (const Thread& t : b.threads) {
            at_block += t.wait == Wait::block;
            all_done &= t.wait == Wait::done;
          }
          if (all_done) break;
          // Threads that returned count as arrived (as on sm_70+); the rest must all wait.
          const Thread* first = nullptr;
          for (Thread& t : b.threads) {
            if (t.wait != Wait::block) continue;
            if (first && (t.block_seq != first->block_seq || !same_site(t, *first)))
              throw std::runtime_error("emu: threads at different __syncthreads() (" + site(*first) + " and " +
                                       site(t) + ")");
            if (!first) first = &t;
          }
          for (Thread& t : b.threads)
            if (t.wait == Wait::block) t.wait = Wait::running;
          if (at_block == 0) throw std::runtime_error("emu: no thread can proceed");
        }
        current_block() = nullptr;
      }
}

}  // namespace emu

// ---- the CUDA names kernels use -----------------------------------------------------------
using emu::dim3;
using uint3 = emu::uint3;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)
#define threadIdx (::emu::cur().idx)
#define blockIdx (::emu::blk().idx)
#define blockDim (::emu::blk().dim)
#define gridDim (::emu::blk().grid)
#define warpSize (::emu::blk().warp_size)

// The call site (file, line) tells barriers apart: threads waiting at different ones diverged.
#define EMU_SITE const char *file = __builtin_FILE(), int line = __builtin_LINE()
inline void __syncthreads(EMU_SITE) { emu::syncthreads(file, line); }
inline void __syncwarp(unsigned long long = ~0ull, EMU_SITE) { emu::syncwarp(file, line); }
template <class T>
T __shfl_xor_sync(unsigned long long, T v, int mask, int width = warpSize, EMU_SITE) {
  return emu::shfl_xor(v, mask, width, file, line);
}
template <class T>
T __shfl_sync(unsigned long long, T v, int src, int width = warpSize, EMU_SITE) {
  return emu::shfl(v, src, width, file, line);
}
template <class T>
T __shfl_down_sync(unsigned long long, T v, unsigned d, int width = warpSize, EMU_SITE) {
  return emu::shfl_down(v, d, width, file, line);
}
template <class T>
T __shfl_up_sync(unsigned long long, T v, unsigned d, int width = warpSize, EMU_SITE) {
  return emu::shfl_up(v, d, width, file, line);
}
inline unsigned long long __ballot_sync(unsigned long long, int pred, EMU_SITE) {
  return emu::ballot(pred, file, line);
}
#undef EMU_SITE

struct float2 {
  float x, y;
};
inline float2 make_float2(float x, float y) { return {x, y}; }
struct float4 {
  float x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }

inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float rsqrtf(float x) { return 1.f / std::sqrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline void sincosf(float a, float* s, float* c) {
  *s = std::sin(a);
  *c = std::cos(a);
}
inline float atomicAdd(float* p, float v) {  // blocks run one at a time: a plain update is atomic
  const float old = *p;
  *p = old + v;
  return old;
}

// fp16 in software (round to nearest even), with the names of cuda_fp16.h.
struct __half {
  unsigned short x;
};
inline unsigned short __half_as_ushort(__half h) { return h.x; }
inline __half __ushort_as_half(unsigned short u) { return __half{u}; }
inline float __half2float(__half h) {
  const unsigned sign = (unsigned)(h.x & 0x8000u) << 16;
  const unsigned exp = (h.x >> 10) & 0x1fu, mant = h.x & 0x3ffu;
  if (exp == 0x1f) return __uint_as_float(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) return (sign ? -1.f : 1.f) * std::ldexp((float)mant, -24);
  return __uint_as_float(sign | ((exp + 112u) << 23) | (mant << 13));
}
inline __half __float2half_rn(float f) {
  const unsigned u = __float_as_uint(f);
  const unsigned short sign = (unsigned short)((u >> 16) & 0x8000u);
  const float a = std::fabs(f);
  if (std::isnan(f)) return __half{(unsigned short)(sign | 0x7e00u)};
  if (a >= 65520.f) return __half{(unsigned short)(sign | 0x7c00u)};  // rounds to infinity
  if (a < 6.103515625e-05f) {                                         // subnormal: multiples of 2^-24
    const float q = std::nearbyint(a * 16777216.f);                   // current rounding mode: to nearest even
    return __half{(unsigned short)(sign | (unsigned short)q)};
  }
  int e;
  const float m = std::frexp(a, &e);            // a = m * 2^e, m in [0.5, 1)
  float q = std::nearbyint(std::ldexp(m, 11));  // 11 significant bits
  if (q == 2048.f) {
    q = 1024.f;
    ++e;
  }
  const unsigned exp = (unsigned)(e - 1 + 15);
  if (exp >= 31) return __half{(unsigned short)(sign | 0x7c00u)};
  return __half{(unsigned short)(sign | (exp << 10) | ((unsigned)q - 1024u))};
}
inline __half __float2half(float f) { return __float2half_rn(f); }
