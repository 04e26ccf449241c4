// Internal to the wave64 runtime's scheduler (runtime/wave64/src): what its parts share.
//
// One Worker per OS thread runs whole blocks. A block's lanes run on fibers, started lazily: one
// fiber runs lane after lane as plain calls, and only when a lane must wait (a barrier, a warp
// operation) does it keep that fiber and a new one start the next lane (fiber.cpp). A kernel
// without barriers or warp operations therefore runs a block as a loop over its lanes on one
// fiber; a barrier over N lanes costs N switches (barriers.cpp). A warp operation stores the
// lane's input, and the last lane of its group to arrive computes every member's result (so
// nobody reads an input slot that a faster lane could overwrite) and makes them ready
// (warp_ops.cpp). Blocks of a launch are spread over OS threads (launch.cpp).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

#include "wave64/core.h"

namespace w64::rt::sched {

namespace bctx = boost::context::detail;

[[noreturn]] void fatal(const std::string& msg);
unsigned env_unsigned(const char* name, unsigned fallback);
// Warnings about undefined behaviour the runtime saw, once per call site and kind.
void warn_once(const Site& s, const char* kind, const std::string& msg);

// A saved execution context: a fiber's, or the worker's own while a block runs.
//
// On x86-64 a switch is ours (fiber.cpp): it saves the six callee-saved integer registers and the
// stack pointer, nothing else. boost.context's jump also saves and restores MXCSR and the x87
// control word, and perf put three quarters of a jump's time in those four instructions
// (fnstcw/fldcw serialise); no kernel code changes the floating-point control state, so nothing
// is lost by leaving it alone. Its `ret` also returns where the switching lane called from, so
// the return predictor is right when every lane waits at the same call site (the common case).
// Elsewhere boost.context's fcontext does the switch.
#if defined(__x86_64__) && !defined(W64_USE_FCONTEXT)
#define W64_OWN_SWITCH 1
extern "C" void w64_ctx_switch(void** save_sp, void* to_sp);
extern "C" void w64_ctx_trampoline();
// w64_ctx_switch(save, to): push the callee-saved registers, store the stack pointer in *save,
// load `to`, pop that context's registers and return into it. A new context's stack holds six
// register slots (r12 = the entry function) and the trampoline as return address.
struct Ctx {
  void* sp = nullptr;
};
inline void ctx_switch(Ctx* from, Ctx* to) { w64_ctx_switch(&from->sp, to->sp); }
inline const void* ctx_stack(const Ctx* c) { return c->sp; }
// A context that starts `entry` (which must never return) on the stack below `top`.
inline void ctx_make(Ctx* c, unsigned char* top, std::size_t /*bytes*/, void (*entry)()) {
  auto t = reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15};
  auto* sp = reinterpret_cast<void**>(t) - 7;  // six registers and the return address: rsp = t after `ret`
  sp[0] = sp[1] = sp[2] = nullptr;             // r15, r14, r13
  sp[3] = reinterpret_cast<void*>(entry);      // r12
  sp[4] = sp[5] = nullptr;                     // rbx, rbp
  sp[6] = reinterpret_cast<void*>(&w64_ctx_trampoline);
  c->sp = sp;
}
#else
struct Ctx {
  bctx::fcontext_t fc = nullptr;
};
inline const void* ctx_stack(const Ctx* c) { return c->fc; }
inline void ctx_switch(Ctx* from, Ctx* to) {
  const bctx::transfer_t t = bctx::jump_fcontext(to->fc, from);
  if (t.data) static_cast<Ctx*>(t.data)->fc = t.fctx;
}
extern void (*g_fcontext_entry)();
void fcontext_entry(bctx::transfer_t t);
inline void ctx_make(Ctx* c, unsigned char* top, std::size_t bytes, void (*entry)()) {
  g_fcontext_entry = entry;
  c->fc = bctx::make_fcontext(top, bytes, fcontext_entry);
}
#endif

enum class State : std::uint8_t { Ready, Running, WaitWave, WaitBlock, WaitTile, Done };
enum class Op : std::uint8_t { Shuffle, Vote, Match, Reduce };

// What a barrier touches of a lane (its saved stack pointer, queue link, state, barrier
// predicate and result, the LaneInfo its code reads) is in the first cache line; what a warp
// operation adds, in the second. A barrier over a 256-lane block touches every lane's record:
// one line each, not three.
struct alignas(64) Lane : Ctx {
  Lane* next_ready = nullptr;
  State state = State::Ready;
  Op op = Op::Vote;
  std::uint8_t sub = 0;  // Shfl / Vote / Reduce value
  // The pending block barrier.
  int bpred = 0;
  int bresult = 0;
  LaneInfo info{};
  unsigned grid_syncs = 0;  // grid_group::sync() calls this lane made (cooperative launches)
  // The pending warp operation.
  Site site{};
  unsigned bytes = 0;
  int arg = 0;
  int width = 0;
  alignas(16) unsigned char in[16]{};
  alignas(16) unsigned char out[16]{};
  // The pending tile barrier (a cooperative-groups tile wider than the wavefront): its lanes.
  unsigned tile_first = 0;
  unsigned tile_count = 0;
  // What a lane publishes for its tile (cooperative-groups reductions across wavefronts).
  alignas(16) unsigned char slot[16]{};
};

struct Wave {
  unsigned first = 0;         // linear index of lane 0
  unsigned size = 0;          // lanes that exist (the last wavefront may be partial)
  std::uint64_t live = 0;     // lanes not finished
  std::uint64_t arrived = 0;  // lanes waiting at a warp operation
};

struct Worker : Ctx {
  std::vector<Lane> lanes;
  std::vector<LaneInfo> infos;  // the lanes' LaneInfo again, packed, for the plain-call loop
  std::vector<Wave> waves;
  BlockInfo block{};
  const Launch* launch = nullptr;
  Lane* cur = nullptr;
  unsigned nlanes = 0;
  LaneCursor cursor;    // cursor.next: lanes 0 .. next-1 have started
  unsigned fibers = 0;  // fibers made for this block (each on its own stack)
  unsigned done = 0;
  unsigned bar_arrived = 0;
  unsigned tile_waiting = 0;  // lanes waiting at tile barriers
  unsigned grid_syncs = 0;    // grid barriers this block has passed (cooperative launches)
  Lane* rq_head = nullptr;
  Lane* rq_tail = nullptr;
  // Fiber stacks: `stack_bytes` each, a guard page below each.
  std::size_t stack_bytes = 0;
  std::vector<unsigned char*> stack_tops;
  std::vector<std::pair<void*, std::size_t>> regions;
  unsigned char* dyn = nullptr;
  std::size_t dyn_cap = 0;

  ~Worker();  // unmaps the stacks (fiber.cpp)
};

// `__thread` (no dynamic initialisation): a read is one load, not a call of C++'s TLS wrapper.
extern __thread Worker* t_worker;
// Workers of a cooperative launch (a thread per block, hundreds at once) map their fiber stacks
// without guard pages: each guard splits the mapping, and 264 blocks of 1024 lanes would pass
// the kernel's limit on mappings (vm.max_map_count, 65530).
extern __thread bool t_no_guard_pages;

Worker& this_worker();
// Fiber stacks for `n` lanes (mapped once per worker, kept between launches).
void ensure_stacks(Worker& w, unsigned n);

inline void push_ready(Worker& w, Lane* l) {
  l->state = State::Ready;
  l->next_ready = nullptr;
  if (w.rq_tail) w.rq_tail->next_ready = l;
  else w.rq_head = l;
  w.rq_tail = l;
}

inline Lane* pop_ready(Worker& w) {
  Lane* l = w.rq_head;
  if (l) {
    w.rq_head = l->next_ready;
    if (!w.rq_head) w.rq_tail = nullptr;
  }
  return l;
}

// Jumps from `self` (a lane, or the worker's own context) to lane `next`; returns when someone
// jumps back. What the lane after `next` will touch first when it resumes (its record, the top
// frames of its stack) is prefetched now: a block's lanes' frames do not fit in L1, and a barrier
// resumes them one after another in queue order, so each lane's lines arrive while the one
// before it runs.
inline void switch_to(Worker& w, Ctx* self, Lane* next) {
  if (const Lane* after = w.rq_head) {
    const char* sp = static_cast<const char*>(ctx_stack(after));
    if (sp) {
      __builtin_prefetch(sp);
      __builtin_prefetch(sp + 64);
      __builtin_prefetch(sp + 128);
      __builtin_prefetch(sp + 192);
      __builtin_prefetch(sp + 256);
      __builtin_prefetch(sp + 320);
    }
    if (after->next_ready) __builtin_prefetch(after->next_ready);
  }
  w.cur = next;
  t_lane = &next->info;
  next->state = State::Running;
  ctx_switch(self, next);
}

// Copies of warp-operation values: the common sizes as fixed-size copies the compiler inlines.
inline void copy_value(void* dst, const void* src, unsigned bytes) {
  switch (bytes) {
    case 4: std::memcpy(dst, src, 4); return;
    case 8: std::memcpy(dst, src, 8); return;
    case 2: std::memcpy(dst, src, 2); return;
    case 16: std::memcpy(dst, src, 16); return;
    default: std::memcpy(dst, src, bytes); return;
  }
}

// Nothing is ready but lanes wait: lanes diverged before a warp operation. Runs the first
// waiting group of one wavefront with the lanes that are there (warp_ops.cpp).
Lane* resolve(Worker& w);
// A new fiber that starts the next lane; returns when someone jumps back to `self` (fiber.cpp).
void start_fiber(Worker& w, Ctx* self);

// What runs after `self` waits or finishes: a lane not started yet (the order the lanes would
// run in if each had been queued at the block's start), else a ready lane, else a diverged group.
inline void run_next(Worker& w, Lane* self) {
  if (w.cursor.next < w.nlanes) {
    start_fiber(w, self);
    return;
  }
  Lane* next = pop_ready(w);
  if (!next) next = resolve(w);
  if (next == self) {
    self->state = State::Running;
    return;
  }
  switch_to(w, self, next);
}

inline void wait(Worker& w, Lane* self) { run_next(w, self); }

// Lanes that ran as plain calls before the block's first wait (LaneCursor) finished without

// Lanes that ran as plain calls before the block's first wait (LaneCursor) finished without
// the scheduler: account for them now, and for every lane from now on (fiber.cpp).
void leave_fast_path(Worker& w, unsigned running);

inline Lane* current(const char* what) {
  Worker* w = t_worker;
  if (!w || !t_lane) fatal(std::string(what) + " called outside a kernel");
  if (!w->cursor.slow) {
    if (w->cursor.region)
      fatal(std::string(what) +
            " reached inside a region of a kernel run in region form (the driver's region pass "
            "missed it); run with W64_REGIONS=0 and report the kernel");
    leave_fast_path(*w, t_lane->linear);
    w->cur = &w->lanes[t_lane->linear];
    w->cur->state = State::Running;
  }
  return w->cur;
}

// Runs the warp operation of the first group (by call site) of the lanes waiting in `wv`, and
// makes its lanes ready. `self` (when in the group) keeps running instead of being queued.
// Returns whether `self` was in the group (warp_ops.cpp).
bool release_group(Worker& w, Wave& wv, Lane* self);
// Releases the block barrier: every lane waiting at __syncthreads (and `self`) goes on (barriers.cpp).
void release_block(Worker& w, Lane* self);
// Releases every tile barrier whose lanes have all arrived or finished; `self` (when released)
// keeps running. Returns whether `self` was released (barriers.cpp).
bool release_tiles(Worker& w, Lane* self);

// The barrier of a cooperative launch's grid: one OS thread per block waits here. A block that
// finished counts as arrived from then on (as lanes that returned do at __syncthreads).
class GridBarrier {
 public:
  explicit GridBarrier(std::uint64_t blocks) : expected_(blocks) {}
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    const std::uint64_t gen = gen_;
    if (++arrived_ >= expected_) {
      release();
      return;
    }
    cv_.wait(lock, [&] { return gen_ != gen; });
  }
  void block_finished() {
    std::lock_guard<std::mutex> lock(m_);
    --expected_;
    if (arrived_ > 0 && arrived_ >= expected_) release();
  }

 private:
  void release() {
    arrived_ = 0;
    ++gen_;
    cv_.notify_all();
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::uint64_t expected_;
  std::uint64_t arrived_ = 0;
  std::uint64_t gen_ = 0;
};
extern GridBarrier* g_grid_barrier;  // of the cooperative launch running now (one at a time)

}  // namespace w64::rt::sched
