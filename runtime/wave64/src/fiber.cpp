// The wave64 runtime's fibers: the context switch, the lanes' stacks, and how a block's lanes
// start, wait and finish on them (scheduler_internal.h has the overview).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

#include "scheduler_internal.h"

namespace w64::rt {

__thread const LaneInfo* t_lane = nullptr;
__thread const BlockInfo* t_block = nullptr;
__thread LaneCursor* t_cursor = nullptr;

namespace sched {

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

#if defined(W64_OWN_SWITCH)
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
#else
void (*g_fcontext_entry)() = nullptr;
void fcontext_entry(bctx::transfer_t t) {
  static_cast<Ctx*>(t.data)->fc = t.fctx;
  g_fcontext_entry();
}
#endif

__thread Worker* t_worker = nullptr;
__thread bool t_no_guard_pages = false;

Worker::~Worker() {
  for (auto& [p, n] : regions) munmap(p, n);
  std::free(dyn);
}

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

void runner_entry();

void start_fiber(Worker& w, Ctx* self) {
  if (w.fibers >= w.stack_tops.size()) fatal("internal: out of fiber stacks");
  Ctx fresh;
  ctx_make(&fresh, w.stack_tops[w.fibers], w.stack_bytes - 61 * 320, runner_entry);
  ++w.fibers;
  w.cur = nullptr;
  ctx_switch(self, &fresh);
}

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
  // The other lanes' records, which run_block leaves alone (a block that never waits never
  // reads them).
  for (unsigned i = running; i < w.nlanes; ++i) {
    w.lanes[i].state = State::Ready;
    w.lanes[i].grid_syncs = 0;
  }
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

}  // namespace sched

using namespace sched;

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

}  // namespace w64::rt
