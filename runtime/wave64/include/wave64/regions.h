// wave64 runtime: what a kernel in region form runs on (docs/wave64.md, "Speed").
//
// `ferry wave64 build` splits a kernel whose barriers and warp operations stand at statement
// level (in its body, or in loops whose bounds every lane computes alike) into regions: the code
// between two of them becomes a loop over the block's lanes, with no fiber switch
// (src/wave64/regions.cpp writes it). The first lane of a block that starts in the plain-call
// loop runs the whole block that way:
//
//   if (::w64::rg::enter()) {
//     ::w64::rg::Block w64_b;                        // claims the block
//     ::w64::rg::Lanes<float> w64_v_sum(w64_b);      // a local live across regions: one per lane
//     ::w64::rg::Slot w64_s0(w64_b);                 // a warp operation's per-lane records
//     for (unsigned w64_l = 0; w64_l < w64_b.n; ++w64_l) { w64_b.lane(w64_l); ... }   // a region
//     w64_s0.run();                                  // the warp operation, one wavefront at a time
//     ...
//     return;
//   }
//   <the original body: the fiber path>
//
// Barriers between regions cost nothing: every lane has finished the region before the next one
// starts. A warp operation is split in two: its arguments are stored per lane at the end of one
// region, `run` computes every lane's result as the scheduler's warp operations do (the same
// source-lane rules and inactive-lane results), and the next region reads them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "wave64/core.h"

namespace w64::rt {

// W64_REGIONS=0 in the environment: kernels run on the fiber path only (for comparison).
bool regions_enabled();
// Per-lane storage of the running region-form block: a thread-local arena, released when the
// block ends (the fiber the block runs on has a small stack).
void* region_alloc(std::size_t bytes, std::size_t align);
std::size_t region_mark();
void region_release(std::size_t mark);

// One lane's record of a warp operation in region form.
struct RegionRec {
  alignas(16) unsigned char in[16];
  alignas(16) unsigned char out[16];
  int arg;
  int width;
  unsigned char active;  // the lane reached the operation (regions under a condition: not all do)
};
// (No enumerator is named like a macro of X11 (None, Bool, Status, True, False, Success): programs
// with OpenGL interop include <X11/Xlib.h> before the runtime.)
enum class RegionOp : std::uint8_t { Unset, Shuffle, Vote, Collective };
// A collective operation's work on one wavefront (wmma.h's mma_sync): `args` holds 4 operand
// addresses per lane, `recs` says which of its `count` lanes reached the operation.
using RegionCollective = void (*)(void* const* args, const RegionRec* recs, unsigned count);
// Computes the result of a warp operation for the lanes of a block that reached it (`active`),
// wavefront by wavefront (`wave` lanes each, the last one partial), as the scheduler does for a
// group of those lanes; then clears `active` for the next time (a loop).
void region_run(RegionRec* recs, unsigned n, unsigned wave, RegionOp op, std::uint8_t sub, unsigned bytes, Site site);
// A _sync mask that does not name the lane (reported once per call site, as on the fiber path).
void region_mask_warning(std::uint64_t mask, unsigned lane, Site site);

}  // namespace w64::rt

namespace w64::rg {

// Whether the running lane is the first of a block that has not waited: it may run the whole
// block in region form.
inline bool enter() {
  const rt::LaneCursor* c = rt::t_cursor;
  return c && !c->slow && !c->region && reinterpret_cast<const unsigned char*>(rt::t_lane) == c->info_base &&
         rt::regions_enabled();
}

// The block being run in region form.
struct Block {
  rt::LaneCursor& c;
  unsigned n;
  const unsigned char* base;
  std::size_t stride;
  std::size_t mark;
  Block() : c(*rt::t_cursor), n(c.count), base(c.info_base), stride(c.info_stride), mark(rt::region_mark()) {
    c.region = true;
  }
  ~Block() {
    c.region = false;
    c.done = true;  // the plain-call loop stops: every lane has run
    rt::t_lane = reinterpret_cast<const rt::LaneInfo*>(base);
    rt::region_release(mark);
  }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
  // Makes lane `l` the running one (threadIdx and the warp intrinsics read it).
  void lane(unsigned l) const { rt::t_lane = reinterpret_cast<const rt::LaneInfo*>(base + l * stride); }
};

// Iterations of an accumulation loop each lane runs before the next lane's turn (the driver's
// chunked form of such a loop, src/wave64/region_chunk.cpp): long enough that the per-lane
// bookkeeping is shared by several iterations, short enough that the chains of several lanes
// are in flight at once.
constexpr unsigned kChunk = 8;

// A local that lives across regions: one per lane.
template <class T>
struct Lanes {
  static_assert(!std::is_array<T>::value || std::is_trivially_destructible<T>::value,
                "wave64 regions: an array of a class with a destructor cannot live across a barrier");
  T* p;
  unsigned n;
  explicit Lanes(const Block& b) : p(static_cast<T*>(rt::region_alloc(sizeof(T) * b.n, alignof(T)))), n(b.n) {
    if constexpr (!std::is_trivially_default_constructible<T>::value)
      for (unsigned i = 0; i < n; ++i) ::new (static_cast<void*>(p + i)) T;
  }
  ~Lanes() {
    if constexpr (!std::is_trivially_destructible<T>::value && !std::is_array<T>::value)
      for (unsigned i = 0; i < n; ++i) p[i].~T();
  }
  Lanes(const Lanes&) = delete;
  Lanes& operator=(const Lanes&) = delete;
};

// A region's name for lane l's element of a Lanes<T>. A small trivially copyable T (a scalar, a
// `uint4`, a small struct) is copied in when the region starts and back when it ends, so that
// the compiler keeps it in registers within the region: through a reference into the per-lane
// array, every store the region makes may alias it (programs are built with
// -fno-strict-aliasing), so g++ kept it in memory and, for a vector type, read 16 bytes right
// after writing 4 of them (a store-forwarding stall on every such read). Arrays and other types
// stay in place. The driver uses a reference instead where the kernel takes the local's address,
// and `Back` false where the region does not change the local (nothing to copy back).
template <class L, bool Back = true>
struct Own;
template <class T, bool Back>
struct Own<Lanes<T>, Back> {
  static constexpr bool kCopy = std::is_trivially_copyable<T>::value && !std::is_array<T>::value && sizeof(T) <= 64;
  std::conditional_t<kCopy, T, T&> v;
  T* home;
  Own(Lanes<T>& l, unsigned i) : v(l.p[i]), home(l.p + i) {}
  ~Own() {
    if constexpr (kCopy && Back) *home = v;
  }
  Own(const Own&) = delete;
  Own& operator=(const Own&) = delete;
};

// The per-lane records of one warp operation of the kernel (one per call site).
struct Slot {
  rt::RegionRec* r;
  unsigned n;
  rt::RegionOp op = rt::RegionOp::Unset;
  std::uint8_t sub = 0;
  unsigned bytes = 0;
  Site site{nullptr, 0, 0};
  void** args = nullptr;  // collective operations: 4 operand addresses per lane
  rt::RegionCollective coll = nullptr;
  explicit Slot(const Block& b)
      : r(static_cast<rt::RegionRec*>(rt::region_alloc(sizeof(rt::RegionRec) * b.n, alignof(rt::RegionRec)))), n(b.n) {
    for (unsigned i = 0; i < n; ++i) r[i].active = 0;
  }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

  void check_mask(std::uint64_t mask, unsigned l, Site s) const {
    const unsigned lane = l % W64_WAVE_SIZE;
    if (!(mask >> lane & 1)) rt::region_mask_warning(mask, lane, s);
  }
  template <class T>
  void shuffle(unsigned l, const T& v, rt::Shfl kind, int arg, int width, Site s) {
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 16,
                  "wave64 runtime: a shuffled value must be trivially copyable and at most 16 bytes");
    std::memcpy(r[l].in, &v, sizeof(T));
    r[l].active = 1;
    r[l].arg = arg;
    r[l].width = width;
    op = rt::RegionOp::Shuffle;
    sub = static_cast<std::uint8_t>(kind);
    bytes = sizeof(T);
    site = s;
  }
  void vote(unsigned l, int pred, rt::Vote kind, Site s) {
    std::memcpy(r[l].in, &pred, sizeof pred);
    r[l].active = 1;
    op = rt::RegionOp::Vote;
    sub = static_cast<std::uint8_t>(kind);
    bytes = sizeof pred;
    site = s;
  }
  // A collective operation over the wavefront whose operands stay where they are (wmma's
  // fragments, per-lane arrays of the block): lane l's four operand addresses; `fn` computes a
  // wavefront's results from them at `run`.
  void collective(unsigned l, const void* a0, const void* a1, const void* a2, const void* a3, rt::RegionCollective fn) {
    if (!args)
      args = static_cast<void**>(rt::region_alloc(sizeof(void*) * 4 * static_cast<std::size_t>(n), alignof(void*)));
    void** p = args + 4 * static_cast<std::size_t>(l);
    p[0] = const_cast<void*>(a0);
    p[1] = const_cast<void*>(a1);
    p[2] = const_cast<void*>(a2);
    p[3] = const_cast<void*>(a3);
    r[l].active = 1;
    op = rt::RegionOp::Collective;
    coll = fn;
  }
  void run() {
    if (op == rt::RegionOp::Collective) {
      for (unsigned w = 0; w < n; w += W64_WAVE_SIZE)
        coll(args + 4 * static_cast<std::size_t>(w), r + w, n - w < W64_WAVE_SIZE ? n - w : W64_WAVE_SIZE);
      for (unsigned i = 0; i < n; ++i) r[i].active = 0;
      return;
    }
    rt::region_run(r, n, W64_WAVE_SIZE, op, sub, bytes, site);
  }
  // Lane l's result, as the type the intrinsic returns.
  template <class R>
  R take(unsigned l) const {
    if constexpr (std::is_integral<R>::value) {
      if (op == rt::RegionOp::Vote) {
        std::uint64_t v;
        std::memcpy(&v, r[l].out, sizeof v);
        return static_cast<R>(v);
      }
    }
    R v;
    std::memcpy(static_cast<void*>(&v), r[l].out, sizeof(R));
    return v;
  }
};

}  // namespace w64::rg
