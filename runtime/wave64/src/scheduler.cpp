// The fiber scheduler of the wave64 runtime: blocks, wavefronts, barriers, warp operations.
//
// One Worker per OS thread runs whole blocks. A block's lanes run on fibers (boost.context
// fcontext: a jump is a register save/restore, no system call), started lazily: one fiber runs
// lane after lane as plain calls, and only when a lane must wait (a barrier, a warp operation)
// does it keep that fiber and a new one start the next lane. A kernel without barriers or warp
// operations therefore runs a block as a loop over its lanes on one fiber; a barrier over N lanes
// costs N switches. A warp operation stores
// the lane's input, and the last lane of its group to arrive computes every member's result
// (so nobody reads an input slot that a faster lane could overwrite) and makes them ready.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>

#include "wave64/core.h"

namespace w64::rt {

__thread const LaneInfo* t_lane = nullptr;
__thread const BlockInfo* t_block = nullptr;
__thread LaneCursor* t_cursor = nullptr;

namespace {

namespace bctx = boost::context::detail;

[[noreturn]] void fatal(const std::string& msg) {
  std::fprintf(stderr, "wave64: error: %s\n", msg.c_str());
  std::fflush(stderr);
  std::abort();
}

unsigned env_unsigned(const char* name, unsigned fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const unsigned long x = std::strtoul(v, &end, 10);
  if (*end != '\0') fatal(std::string(name) + "='" + v + "' is not a number");
  return static_cast<unsigned>(x);
}

bool quiet() {
  static const bool q = env_unsigned("W64_QUIET", 0) != 0;
  return q;
}

// Warnings about undefined behaviour the runtime saw, once per call site and kind.
void warn_once(const Site& s, const char* kind, const std::string& msg) {
  if (quiet()) return;
  static std::mutex m;
  static std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seen;
  std::lock_guard<std::mutex> lock(m);
  if (!seen.emplace(s.file, s.line, s.col, kind).second) return;
  std::fprintf(stderr, "%s:%u:%u: wave64: warning: %s\n", s.file, s.line, s.col, msg.c_str());
}

// A saved execution context: a fiber's, or the worker's own while a block runs.
//
// On x86-64 a switch is ours (below): it saves the six callee-saved integer registers and the
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
asm(R"(
  .text
  .p2align 4
  .globl w64_ctx_switch
  .hidden w64_ctx_switch
  .type w64_ctx_switch, @function
w64_ctx_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size w64_ctx_switch, .-w64_ctx_switch
  .p2align 4
  .globl w64_ctx_trampoline
  .hidden w64_ctx_trampoline
  .type w64_ctx_trampoline, @function
w64_ctx_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  callq *%r12
  ud2
  .cfi_endproc
  .size w64_ctx_trampoline, .-w64_ctx_trampoline
)");
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
void (*g_fcontext_entry)() = nullptr;
void fcontext_entry(bctx::transfer_t t) {
  static_cast<Ctx*>(t.data)->fc = t.fctx;
  g_fcontext_entry();
}
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

  ~Worker() {
    for (auto& [p, n] : regions) munmap(p, n);
    std::free(dyn);
  }
};

thread_local Worker* t_worker = nullptr;
// Workers of a cooperative launch (a thread per block, hundreds at once) map their fiber stacks
// without guard pages: each guard splits the mapping, and 264 blocks of 1024 lanes would pass
// the kernel's limit on mappings (vm.max_map_count, 65530).
thread_local bool t_no_guard_pages = false;

Worker& this_worker() {
  if (!t_worker) {
    static thread_local Worker w;
    t_worker = &w;
  }
  return *t_worker;
}

std::size_t page_size() {
  static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

void ensure_stacks(Worker& w, unsigned n) {
  if (w.stack_bytes == 0) {
    const std::size_t kb = env_unsigned("W64_STACK_KB", 64);
    const std::size_t p = page_size();
    w.stack_bytes = std::max<std::size_t>(16 * 1024, (kb * 1024 + p - 1) / p * p);
  }
  if (w.stack_tops.size() >= n) return;
  const std::size_t want = n - w.stack_tops.size();
  const std::size_t slot = w.stack_bytes + page_size();
  const std::size_t bytes = want * slot;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) fatal("cannot map " + std::to_string(bytes >> 20) + " MiB of fiber stacks");
  w.regions.emplace_back(p, bytes);
  auto* base = static_cast<unsigned char*>(p);
  for (std::size_t i = 0; i < want; ++i) {
    unsigned char* lo = base + i * slot;
    if (!t_no_guard_pages) mprotect(lo, page_size(), PROT_NONE);  // guard: an overflow faults, not corrupts
    // Stagger the tops: stacks a page multiple apart would all map the same cache sets, and a
    // barrier touches every lane's top frames in turn.
    const std::size_t stagger = (w.stack_tops.size() % 61) * 320;
    w.stack_tops.push_back(lo + slot - stagger);
  }
}

void push_ready(Worker& w, Lane* l) {
  l->state = State::Ready;
  l->next_ready = nullptr;
  if (w.rq_tail) w.rq_tail->next_ready = l;
  else w.rq_head = l;
  w.rq_tail = l;
}

Lane* pop_ready(Worker& w) {
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

bool site_less(const Lane& a, const Lane& b) {
  if (a.site.line != b.site.line) return a.site.line < b.site.line;
  if (a.site.col != b.site.col) return a.site.col < b.site.col;
  if (a.site.file != b.site.file) {
    const int c = std::strcmp(a.site.file, b.site.file);
    if (c != 0) return c < 0;
  }
  return std::tie(a.op, a.sub) < std::tie(b.op, b.sub);
}

bool same_site(const Lane& a, const Lane& b) {
  return a.site.line == b.site.line && a.site.col == b.site.col && a.op == b.op && a.sub == b.sub &&
         (a.site.file == b.site.file || std::strcmp(a.site.file, b.site.file) == 0);
}

const char* shuffle_name(Shfl k) {
  switch (k) {
    case Shfl::HipIdx: return "__shfl";
    case Shfl::HipUp: return "__shfl_up";
    case Shfl::HipDown: return "__shfl_down";
    case Shfl::HipXor: return "__shfl_xor";
    case Shfl::CudaIdx: return "__shfl_sync";
    case Shfl::CudaUp: return "__shfl_up_sync";
    case Shfl::CudaDown: return "__shfl_down_sync";
    case Shfl::CudaXor: return "__shfl_xor_sync";
  }
  return "__shfl";
}

// The source lane of a shuffle, as the HIP 5.2 headers or the CUDA documentation define it.
int shuffle_source(Shfl k, int self, int arg, int width, int wave) {
  int index = self;
  switch (k) {
    case Shfl::HipIdx: index = arg + (self & ~(width - 1)); break;
    case Shfl::CudaIdx: index = (self & ~(width - 1)) + (arg & (width - 1)); break;
    case Shfl::HipUp:
    case Shfl::CudaUp:
      index = self - arg;
      if (index < (self & ~(width - 1))) index = self;
      break;
    case Shfl::HipDown:
    case Shfl::CudaDown:
      index = self + arg;
      if ((self & (width - 1)) + arg >= width) index = self;
      break;
    case Shfl::HipXor:
    case Shfl::CudaXor:
      index = self ^ arg;
      if (index >= ((self + width) & ~(width - 1))) index = self;
      break;
  }
  const bool hip = k <= Shfl::HipXor;
  if (hip) return index & (wave - 1);  // ds_bpermute addresses lanes modulo the wavefront
  return (index < 0 || index >= wave) ? self : index;
}

void compute_group(Worker& w, Wave& wv, std::uint64_t group) {
  Lane* lanes = &w.lanes[wv.first];
  const Lane& head = lanes[__builtin_ctzll(group)];
  const int wave = static_cast<int>(w.launch->wave);
  switch (head.op) {
    case Op::Shuffle: {
      const auto kind = static_cast<Shfl>(head.sub);
      const bool hip = kind <= Shfl::HipXor;
      for (std::uint64_t g = group; g; g &= g - 1) {
        const int i = __builtin_ctzll(g);
        Lane& l = lanes[i];
        const int src = shuffle_source(kind, i, l.arg, l.width, wave);
        if (src < static_cast<int>(wv.size) && (group >> src & 1)) {
          copy_value(l.out, lanes[src].in, l.bytes);
        } else {
          warn_once(l.site, "inactive",
                    std::string(shuffle_name(kind)) + " in lane " + std::to_string(i) + " reads lane " +
                        std::to_string(src) + ", which is not active (diverged, exited or beyond blockDim); " +
                        (hip ? "AMD hardware returns 0"
                             : "the value is undefined in CUDA; "
                               "the caller's own value is returned") +
                        " (reported once per call site)");
          if (hip) std::memset(l.out, 0, l.bytes);
          else std::memcpy(l.out, l.in, l.bytes);
        }
      }
      return;
    }
    case Op::Vote: {
      std::uint64_t ballot = 0;
      for (std::uint64_t g = group; g; g &= g - 1) {
        const int i = __builtin_ctzll(g);
        int p = 0;
        std::memcpy(&p, lanes[i].in, sizeof p);
        if (p) ballot |= 1ull << i;
      }
      std::uint64_t r = 0;
      switch (static_cast<Vote>(head.sub)) {
        case Vote::Ballot: r = ballot; break;
        case Vote::Any: r = ballot != 0; break;
        case Vote::All: r = ballot == group; break;
        case Vote::Active: r = group; break;
        case Vote::Sync: r = 0; break;
      }
      for (std::uint64_t g = group; g; g &= g - 1) std::memcpy(lanes[__builtin_ctzll(g)].out, &r, sizeof r);
      return;
    }
    case Op::Match: {
      const bool all = head.sub != 0;
      bool every = true;
      for (std::uint64_t g = group; g; g &= g - 1) {
        Lane& l = lanes[__builtin_ctzll(g)];
        std::uint64_t m = 0;
        for (std::uint64_t h = group; h; h &= h - 1) {
          const int j = __builtin_ctzll(h);
          if (std::memcmp(l.in, lanes[j].in, l.bytes) == 0) m |= 1ull << j;
        }
        if (m != group) every = false;
        std::memcpy(l.out, &m, sizeof m);
      }
      if (all) {
        const std::uint64_t r = every ? group : 0;
        const int e = every;
        for (std::uint64_t g = group; g; g &= g - 1) {
          Lane& l = lanes[__builtin_ctzll(g)];
          std::memcpy(l.out, &r, sizeof r);
          std::memcpy(l.out + 8, &e, sizeof e);
        }
      }
      return;
    }
    case Op::Reduce: {
      const auto op = static_cast<Reduce>(head.sub);
      std::uint32_t acc = 0;
      bool first = true;
      for (std::uint64_t g = group; g; g &= g - 1) {
        std::uint32_t v = 0;
        std::memcpy(&v, lanes[__builtin_ctzll(g)].in, sizeof v);
        if (first) {
          acc = v;
          first = false;
          continue;
        }
        switch (op) {
          case Reduce::AddU: acc += v; break;
          case Reduce::MinU: acc = std::min(acc, v); break;
          case Reduce::MaxU: acc = std::max(acc, v); break;
          case Reduce::MinS:
            acc = static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)));
            break;
          case Reduce::MaxS:
            acc = static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)));
            break;
          case Reduce::And: acc &= v; break;
          case Reduce::Or: acc |= v; break;
          case Reduce::Xor: acc ^= v; break;
        }
      }
      for (std::uint64_t g = group; g; g &= g - 1) std::memcpy(lanes[__builtin_ctzll(g)].out, &acc, sizeof acc);
      return;
    }
  }
}

// Runs the warp operation of the first group (by call site) of the lanes waiting in `wv`, and
// makes its lanes ready. `self` (when in the group) keeps running instead of being queued.
// Returns whether `self` was in the group.
bool release_group(Worker& w, Wave& wv, Lane* self) {
  Lane* lanes = &w.lanes[wv.first];
  // Usually every waiting lane is at the same operation: one pass finds that out.
  const Lane* first = &lanes[__builtin_ctzll(wv.arrived)];
  std::uint64_t group = 0;
  for (std::uint64_t a = wv.arrived; a; a &= a - 1) {
    const int i = __builtin_ctzll(a);
    if (same_site(lanes[i], *first)) group |= 1ull << i;
  }
  if (group != wv.arrived) {  // diverged: the group of the earliest call site goes first
    for (std::uint64_t a = wv.arrived; a; a &= a - 1) {
      const Lane& l = lanes[__builtin_ctzll(a)];
      if (site_less(l, *first)) first = &l;
    }
    group = 0;
    for (std::uint64_t a = wv.arrived; a; a &= a - 1) {
      const int i = __builtin_ctzll(a);
      if (same_site(lanes[i], *first)) group |= 1ull << i;
    }
  }
  compute_group(w, wv, group);
  wv.arrived &= ~group;
  bool self_in = false;
  for (std::uint64_t g = group; g; g &= g - 1) {
    Lane* l = &lanes[__builtin_ctzll(g)];
    if (l == self) {
      self_in = true;
      l->state = State::Running;
    } else {
      push_ready(w, l);
    }
  }
  return self_in;
}

void release_block(Worker& w, Lane* self) {
  int kind = self ? self->bpred >> 8 : -1;  // the counting kind rides in bpred's high bits
  int count = 0;
  int waiting = 0;
  for (unsigned i = 0; i < w.nlanes; ++i) {
    const Lane& l = w.lanes[i];
    if (l.state != State::WaitBlock && &l != self) continue;
    ++waiting;
    count += (l.bpred & 0xff) != 0;
    if (kind < 0) kind = l.bpred >> 8;
  }
  int result = 0;
  switch (kind) {
    case 1: result = count; break;
    case 2: result = count == waiting; break;
    case 3: result = count != 0; break;
    default: break;
  }
  for (unsigned i = 0; i < w.nlanes; ++i) {
    Lane* l = &w.lanes[i];
    if (l == self) {
      l->bresult = result;
      l->state = State::Running;
    } else if (l->state == State::WaitBlock) {
      l->bresult = result;
      push_ready(w, l);
    }
  }
  w.bar_arrived = 0;
}

// Releases every tile barrier whose lanes have all arrived or finished; `self` (when released)
// keeps running. Returns whether `self` was released.
bool release_tiles(Worker& w, Lane* self) {
  bool self_released = false;
  for (unsigned i = 0; i < w.nlanes;) {
    const Lane& l = w.lanes[i];
    if (l.state != State::WaitTile && &l != self) {
      ++i;
      continue;
    }
    const unsigned first = l.tile_first;
    const unsigned end = std::min(w.nlanes, first + l.tile_count);
    bool complete = true;
    for (unsigned j = first; j < end && complete; ++j) {
      const Lane& m = w.lanes[j];
      complete = m.state == State::Done || ((m.state == State::WaitTile || &m == self) && m.tile_first == first);
    }
    if (complete) {
      for (unsigned j = first; j < end; ++j) {
        Lane* m = &w.lanes[j];
        if (m == self) {
          self_released = true;
          m->state = State::Running;
          --w.tile_waiting;
        } else if (m->state == State::WaitTile) {
          --w.tile_waiting;
          push_ready(w, m);
        }
      }
    }
    i = std::max(i + 1, end);
  }
  return self_released;
}

// Nothing is ready but lanes wait: lanes diverged before a warp operation. Run the first
// waiting group of one wavefront with the lanes that are there.
Lane* resolve(Worker& w) {
  for (Wave& wv : w.waves) {
    if (!wv.arrived) continue;
    release_group(w, wv, nullptr);
    return pop_ready(w);
  }
  fatal("internal: no lane of the block can run (block barrier count " + std::to_string(w.bar_arrived) + " of " +
        std::to_string(w.nlanes - w.done) + " live lanes)");
}

void runner_entry();

// A new fiber that starts the next lane; returns when someone jumps back to `self`.
void start_fiber(Worker& w, Ctx* self) {
  if (w.fibers >= w.stack_tops.size()) fatal("internal: out of fiber stacks");
  Ctx fresh;
  ctx_make(&fresh, w.stack_tops[w.fibers], w.stack_bytes - 61 * 320, runner_entry);
  ++w.fibers;
  w.cur = nullptr;
  ctx_switch(self, &fresh);
}

// What runs after `self` waits or finishes: a lane not started yet (the order the lanes would
// run in if each had been queued at the block's start), else a ready lane, else a diverged group.
void run_next(Worker& w, Lane* self) {
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

void wait(Worker& w, Lane* self) { run_next(w, self); }

// Lanes that ran as plain calls before the block's first wait (LaneCursor) finished without
// the scheduler: account for them now, and for every lane from now on.
void leave_fast_path(Worker& w, unsigned running) {
  if (w.cursor.slow) return;
  w.cursor.slow = true;
  w.cursor.next = running + 1;  // the plain-call loop does not store it per lane
  for (unsigned i = 0; i < running; ++i) {
    Lane& l = w.lanes[i];
    l.state = State::Done;
    ++w.done;
    w.waves[l.info.wave].live &= ~(1ull << l.info.lane);
  }
}

inline Lane* current(const char* what) {
  Worker* w = t_worker;
  if (!w || !t_lane) fatal(std::string(what) + " called outside a kernel");
  if (!w->cursor.slow) {
    leave_fast_path(*w, t_lane->linear);
    w->cur = &w->lanes[t_lane->linear];
    w->cur->state = State::Running;
  }
  return w->cur;
}

void arrive_wave(Worker& w, Lane* self) {
  Wave& wv = w.waves[self->info.wave];
  self->state = State::WaitWave;
  wv.arrived |= 1ull << self->info.lane;
  if (wv.arrived == wv.live && release_group(w, wv, self)) return;
  wait(w, self);
}

// A lane returned from the kernel: what waited on it may go on.
void lane_finished(Worker& w, Lane* self) {
  self->state = State::Done;
  ++w.done;
  Wave& wv = w.waves[self->info.wave];
  wv.live &= ~(1ull << self->info.lane);
  if (wv.arrived && wv.arrived == wv.live) release_group(w, wv, nullptr);
  if (w.bar_arrived && w.bar_arrived + w.done == w.nlanes) release_block(w, nullptr);
  if (w.tile_waiting) release_tiles(w, nullptr);
}

// A fiber runs lanes while there are lanes to start (KernelCall::invoke: plain calls until the
// block's first wait); a lane that waits keeps the fiber (its stack holds the lane's frames) and
// the next lane starts on a new one.
void runner_entry() {
  Worker& w = *t_worker;
  try {
    w.launch->invoke(w.launch->closure);
  } catch (const std::exception& e) {
    fatal(std::string("exception in a kernel: ") + e.what());
  } catch (...) {
    fatal("exception in a kernel");
  }
  if (!w.cursor.slow) {
    // No lane waited: the whole block ran here as a loop.
    w.done = w.nlanes;
    w.cur = nullptr;
  }
  Lane* self = w.cur;
  if (w.done == w.nlanes) {
    w.cur = nullptr;
    t_lane = nullptr;
    Ctx gone;  // this fiber's context, never resumed
    ctx_switch(self ? static_cast<Ctx*>(self) : &gone, &w);
  } else {
    run_next(w, self);
  }
  fatal("internal: a finished lane was resumed");
}

}  // namespace

bool start_lane() {
  Worker& w = *t_worker;
  if (w.cursor.next >= w.nlanes) return false;
  Lane* self = &w.lanes[w.cursor.next++];
  w.cur = self;
  t_lane = &self->info;
  self->state = State::Running;
  return true;
}

void finish_lane() { lane_finished(*t_worker, t_worker->cur); }

namespace {

std::vector<void** (*)()>& dyn_slots() {
  static std::vector<void** (*)()> v;
  return v;
}

void setup_launch(Worker& w, const Launch& l) {
  w.launch = &l;
  const dim3 b = l.block;
  w.nlanes = b.x * b.y * b.z;
  if (w.lanes.size() < w.nlanes) w.lanes.resize(w.nlanes);
  if (w.infos.size() < w.nlanes) w.infos.resize(w.nlanes);
  for (unsigned i = 0; i < w.nlanes; ++i) {
    LaneInfo& li = w.lanes[i].info;
    li.tid = uint3{i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    li.linear = i;
    li.lane = i % l.wave;
    li.wave = i / l.wave;
    w.infos[i] = li;
  }
  const unsigned nwaves = (w.nlanes + l.wave - 1) / l.wave;
  w.waves.assign(nwaves, Wave{});
  for (unsigned i = 0; i < nwaves; ++i) {
    w.waves[i].first = i * l.wave;
    w.waves[i].size = std::min(l.wave, w.nlanes - i * l.wave);
  }
  ensure_stacks(w, w.nlanes);
  if (l.shared_bytes > w.dyn_cap) {
    std::free(w.dyn);
    w.dyn_cap = (l.shared_bytes + 255) / 256 * 256;
    w.dyn = static_cast<unsigned char*>(std::aligned_alloc(256, w.dyn_cap));
    if (!w.dyn) fatal("cannot allocate dynamic shared memory");
    std::memset(w.dyn, 0, w.dyn_cap);
  }
  w.block.bdim = l.block;
  w.block.gdim = l.grid;
  w.block.dyn_shared = l.shared_bytes ? w.dyn : nullptr;
  w.block.dyn_bytes = l.shared_bytes;
  for (void** (*slot)() : dyn_slots()) *slot() = w.block.dyn_shared;
}

void run_block(Worker& w, std::uint64_t b) {
  const dim3 g = w.launch->grid;
  w.block.bid = uint3{static_cast<unsigned>(b % g.x), static_cast<unsigned>((b / g.x) % g.y),
                      static_cast<unsigned>(b / (static_cast<std::uint64_t>(g.x) * g.y))};
  w.done = 0;
  w.bar_arrived = 0;
  w.tile_waiting = 0;
  w.grid_syncs = 0;
  w.rq_head = w.rq_tail = nullptr;
  for (Wave& wv : w.waves) {
    wv.live = wv.size == 64 ? ~0ull : (1ull << wv.size) - 1;
    wv.arrived = 0;
  }
  for (unsigned i = 0; i < w.nlanes; ++i) {
    w.lanes[i].state = State::Ready;
    w.lanes[i].grid_syncs = 0;
  }
  w.cursor.next = 0;
  w.cursor.count = w.nlanes;
  w.cursor.slow = false;
  w.cursor.info_base = reinterpret_cast<const unsigned char*>(w.infos.data());
  w.cursor.info_stride = sizeof(LaneInfo);
  t_cursor = &w.cursor;
  w.cur = nullptr;
  w.fibers = 0;
  t_block = &w.block;
  start_fiber(w, &w);
  t_block = nullptr;
}

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
GridBarrier* g_grid_barrier = nullptr;  // of the cooperative launch running now (one at a time)

// Every block of a cooperative launch on its own OS thread, so that all are resident at once.
void run_cooperative(const Launch& l, std::uint64_t nblocks) {
  GridBarrier barrier(nblocks);
  g_grid_barrier = &barrier;
  std::vector<std::thread> threads;
  threads.reserve(nblocks);
  for (std::uint64_t b = 0; b < nblocks; ++b)
    threads.emplace_back([&l, &barrier, b] {
      t_no_guard_pages = true;
      Worker& w = this_worker();
      setup_launch(w, l);
      run_block(w, b);
      barrier.block_finished();
    });
  for (std::thread& t : threads) t.join();
  g_grid_barrier = nullptr;
}

// Persistent helper threads for launches with more than one worker.
class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void run(const Launch& l, std::uint64_t nblocks, unsigned workers) {
    while (threads_.size() + 1 < workers) {
      threads_.emplace_back([this] { loop(); });
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = &l;
      nblocks_ = nblocks;
      next_.store(0);
      active_ = workers - 1;
      ++gen_;
    }
    cv_.notify_all();
    work(l);
    std::unique_lock<std::mutex> lock(m_);
    done_cv_.wait(lock, [this] { return busy_ == 0 && active_ == 0; });
    job_ = nullptr;
  }

 private:
  void work(const Launch& l) {
    Worker& w = this_worker();
    setup_launch(w, l);
    for (std::uint64_t b; (b = next_.fetch_add(1)) < nblocks_;) run_block(w, b);
  }

  void loop() {
    std::uint64_t seen = 0;
    for (;;) {
      const Launch* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return stop_ || (gen_ != seen && job_ && active_ > 0); });
        if (stop_) return;
        seen = gen_;
        job = job_;
        --active_;
        ++busy_;
      }
      work(*job);
      {
        std::lock_guard<std::mutex> lock(m_);
        --busy_;
      }
      done_cv_.notify_all();
    }
  }

  std::mutex m_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> threads_;
  const Launch* job_ = nullptr;
  std::uint64_t nblocks_ = 0;
  std::atomic<std::uint64_t> next_{0};
  std::uint64_t gen_ = 0;
  unsigned active_ = 0;  // helpers still to join the current launch
  unsigned busy_ = 0;    // helpers working on it
  bool stop_ = false;
};

}  // namespace

unsigned worker_threads() {
  static const unsigned n = [] {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    return std::max(1u, env_unsigned("W64_THREADS", hw));
  }();
  return n;
}

DynSharedSlot::DynSharedSlot(void** (*slot)()) { dyn_slots().push_back(slot); }

int launch(const Launch& l) {
  if (t_lane) fatal("a kernel launched a kernel (dynamic parallelism is not supported)");
  const dim3 g = l.grid;
  const dim3 b = l.block;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0) return kInvalidConfiguration;
  if (static_cast<std::uint64_t>(b.x) * b.y * b.z > 1024 || b.z > 64 || g.y > 65535 || g.z > 65535 || g.x > 0x7fffffffu)
    return kInvalidConfiguration;
  if (l.shared_bytes > l.shared_limit) return kInvalidValue;
  static std::mutex launch_mutex;  // host threads launching at once run one grid at a time
  std::lock_guard<std::mutex> lock(launch_mutex);
  const std::uint64_t nblocks = static_cast<std::uint64_t>(g.x) * g.y * g.z;
  if (l.cooperative) {
    if (l.max_blocks && nblocks > l.max_blocks) return kCooperativeLaunchTooLarge;
    run_cooperative(l, nblocks);
    return kOk;
  }
  const unsigned workers = static_cast<unsigned>(std::min<std::uint64_t>(worker_threads(), nblocks));
  if (workers <= 1) {
    Worker& w = this_worker();
    setup_launch(w, l);
    for (std::uint64_t i = 0; i < nblocks; ++i) run_block(w, i);
    return kOk;
  }
  static Pool pool;
  pool.run(l, nblocks, workers);
  return kOk;
}

void shuffle(const void* in, void* out, unsigned bytes, Shfl kind, int arg, int width, Site site) {
  Lane* self = current("a shuffle");
  copy_value(self->in, in, bytes);
  self->bytes = bytes;
  self->op = Op::Shuffle;
  self->sub = static_cast<std::uint8_t>(kind);
  self->arg = arg;
  self->width = width;
  self->site = site;
  arrive_wave(*t_worker, self);
  copy_value(out, self->out, bytes);
}

std::uint64_t vote(Vote kind, int pred, Site site) {
  Lane* self = current("a warp vote");
  std::memcpy(self->in, &pred, sizeof pred);
  self->op = Op::Vote;
  self->sub = static_cast<std::uint8_t>(kind);
  self->site = site;
  arrive_wave(*t_worker, self);
  std::uint64_t r = 0;
  std::memcpy(&r, self->out, sizeof r);
  return r;
}

std::uint64_t match(const void* value, unsigned bytes, bool all, int* all_equal, Site site) {
  Lane* self = current("__match_*_sync");
  std::memcpy(self->in, value, bytes);
  self->bytes = bytes;
  self->op = Op::Match;
  self->sub = all ? 1 : 0;
  self->site = site;
  arrive_wave(*t_worker, self);
  std::uint64_t r = 0;
  std::memcpy(&r, self->out, sizeof r);
  if (all_equal) std::memcpy(all_equal, self->out + 8, sizeof(int));
  return r;
}

std::uint32_t reduce(Reduce op, std::uint32_t v, Site site) {
  Lane* self = current("__reduce_*_sync");
  std::memcpy(self->in, &v, sizeof v);
  self->op = Op::Reduce;
  self->sub = static_cast<std::uint8_t>(op);
  self->site = site;
  arrive_wave(*t_worker, self);
  std::uint32_t r = 0;
  std::memcpy(&r, self->out, sizeof r);
  return r;
}

int block_barrier(int kind, int pred) {
  Lane* self = current("__syncthreads");
  Worker& w = *t_worker;
  self->bpred = (kind << 8) | (pred ? 1 : 0);
  self->state = State::WaitBlock;
  ++w.bar_arrived;
  if (w.bar_arrived + w.done == w.nlanes) {
    release_block(w, self);
    return self->bresult;
  }
  wait(w, self);
  return self->bresult;
}

bool in_cooperative_launch() { return t_lane && g_grid_barrier; }

void grid_sync() {
  Lane* self = current("grid_group::sync()");
  if (!g_grid_barrier)
    fatal(
        "grid_group::sync() in a kernel that was not launched with cudaLaunchCooperativeKernel / "
        "hipLaunchCooperativeKernel (a grid barrier needs every block resident)");
  const unsigned n = ++self->grid_syncs;
  block_barrier(0, 0);
  // Every lane of the block has arrived; the first one to go on waits for the other blocks (its
  // OS thread blocks, and with it the block's other lanes), the rest find the barrier passed.
  Worker& w = *t_worker;
  if (w.grid_syncs < n) {
    g_grid_barrier->wait();
    w.grid_syncs = n;
  }
}

void tile_barrier(unsigned first, unsigned count) {
  Lane* self = current("a tile's sync()");
  Worker& w = *t_worker;
  self->tile_first = first;
  self->tile_count = count;
  self->state = State::WaitTile;
  ++w.tile_waiting;
  if (release_tiles(w, self)) return;
  wait(w, self);
}

void* lane_slot(unsigned linear) {
  Worker* w = t_worker;
  if (!w || !t_lane) fatal("a cooperative-groups operation outside a kernel");
  if (linear >= w->nlanes) fatal("internal: lane slot " + std::to_string(linear) + " out of the block");
  return w->lanes[linear].slot;
}

void check_mask(std::uint64_t mask, Site site) {
  const Lane* self = current("a _sync warp intrinsic");
  if (!(mask >> self->info.lane & 1))
    warn_once(site, "mask",
              "lane " + std::to_string(self->info.lane) +
                  " calls a _sync intrinsic with a mask that does not "
                  "include it (undefined behaviour in CUDA)");
}

}  // namespace w64::rt
