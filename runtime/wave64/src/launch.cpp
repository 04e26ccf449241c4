// The wave64 runtime's launches: a grid's blocks on the worker threads (one per core, persistent
// between launches), or, for a cooperative launch, every block at once on its own OS thread.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "scheduler_internal.h"

namespace w64::rt {
namespace sched {
namespace {

std::vector<void** (*)()>& dyn_slots() {
  static std::vector<void** (*)()> v;
  return v;
}

// ---- work sized for a GPU (docs/wave64.md, "Work a CPU cannot do in time") ----------------------
// Under a CPU-time limit (RLIMIT_CPU: `ulimit -t`, as `diffrun --wave64 --suite` sets it; or
// W64_CPU_BUDGET=seconds), a launch whose blocks, at the rate of those done so far, would need
// more CPU time than the process has left stops the program with FRY9402, naming the launch and
// the figures, instead of running into the limit with nothing said.

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double cpu_budget_seconds() {
  static const double b = [] {
    if (const char* v = std::getenv("W64_CPU_BUDGET"); v && *v) return std::atof(v);
    rlimit r{};
    if (getrlimit(RLIMIT_CPU, &r) == 0 && r.rlim_cur != RLIM_INFINITY) return static_cast<double>(r.rlim_cur);
    return 0.0;
  }();
  return b;
}

// One launch's progress against the budget.
class BudgetCheck {
 public:
  BudgetCheck(const Launch& l, std::uint64_t nblocks)
      : l_(l), nblocks_(nblocks), limit_(cpu_budget_seconds()), start_(limit_ > 0 ? process_cpu_seconds() : 0) {}
  // After block `b` (blocks are claimed in order, so about b of them are done).
  void after_block(std::uint64_t b) {
    if (limit_ <= 0 || b == 0 || (nblocks_ >= 1024 && (b & 15) != 0)) return;
    const double now = process_cpu_seconds(), spent = now - start_;
    if (spent < std::min(3.0, 0.05 * limit_)) return;  // too little to tell the rate
    const double needed = spent * static_cast<double>(nblocks_ - b) / static_cast<double>(b);
    const double left = limit_ - now;
    if (needed <= 1.25 * left) return;
    if (stopped_.exchange(true)) return;
    std::fprintf(stderr,
                 "wave64: error: a launch of %llu blocks of %u threads needs about %.0f s more of CPU time (%llu "
                 "blocks took %.1f s), more than the %.0f s left of this process's %.0f s limit: work sized for a "
                 "GPU, stopped [FRY9402]\n",
                 static_cast<unsigned long long>(nblocks_), l_.block.x * l_.block.y * l_.block.z, needed,
                 static_cast<unsigned long long>(b), spent, left > 0 ? left : 0.0, limit_);
    std::fflush(stderr);
    std::fflush(stdout);
    std::_Exit(3);
  }

 private:
  const Launch& l_;
  std::uint64_t nblocks_;
  double limit_, start_;
  std::atomic<bool> stopped_{false};
};

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
  // The lanes' records are reset when the block leaves the plain-call loop (leave_fast_path):
  // a block in which no lane waits never touches them (a 256-lane block's are 512 cache lines).
  w.cursor.next = 0;
  w.cursor.count = w.nlanes;
  w.cursor.slow = false;
  w.cursor.done = false;
  w.cursor.region = false;
  w.cursor.info_base = reinterpret_cast<const unsigned char*>(w.infos.data());
  w.cursor.info_stride = sizeof(LaneInfo);
  t_cursor = &w.cursor;
  w.cur = nullptr;
  w.fibers = 0;
  t_block = &w.block;
  start_fiber(w, &w);
  t_block = nullptr;
}

// Every block of a cooperative launch on its own OS thread, so that all are resident at once
// (each OS thread has its own __shared__ storage). The threads persist between cooperative
// launches with their workers' fiber stacks: a program that launches a 120-block grid of 1024
// lanes 100 times (cuda-samples' reductionMultiBlockCG) made 12,000 threads and faulted in and
// unmapped a fresh stack for each of 12 million lanes, which was most of its time.
class CoopPool {
 public:
  ~CoopPool() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void run(const Launch& l, std::uint64_t nblocks) {
    GridBarrier barrier(nblocks);
    g_grid_barrier = &barrier;
    while (threads_.size() < nblocks) {
      const std::uint64_t index = threads_.size();
      threads_.emplace_back([this, index] { loop(index); });
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = &l;
      nblocks_ = nblocks;
      pending_ = nblocks;
      ++gen_;
    }
    cv_.notify_all();
    {
      std::unique_lock<std::mutex> lock(m_);
      done_cv_.wait(lock, [this] { return pending_ == 0; });
      job_ = nullptr;
    }
    g_grid_barrier = nullptr;
  }

 private:
  // Thread `index` runs block `index` of every cooperative launch that has that many blocks.
  void loop(std::uint64_t index) {
    t_no_guard_pages = true;
    std::uint64_t seen = 0;
    for (;;) {
      const Launch* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return stop_ || gen_ != seen; });
        if (stop_) return;
        seen = gen_;
        if (index >= nblocks_ || !job_) continue;
        job = job_;
      }
      Worker& w = this_worker();
      setup_launch(w, *job);
      run_block(w, index);
      g_grid_barrier->block_finished();
      {
        std::lock_guard<std::mutex> lock(m_);
        if (--pending_ == 0) done_cv_.notify_all();
      }
    }
  }

  std::mutex m_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> threads_;
  const Launch* job_ = nullptr;
  std::uint64_t nblocks_ = 0;
  std::uint64_t pending_ = 0;
  std::uint64_t gen_ = 0;
  bool stop_ = false;
};

void run_cooperative(const Launch& l, std::uint64_t nblocks) {
  static CoopPool pool;
  pool.run(l, nblocks);
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

  void run(const Launch& l, std::uint64_t nblocks, unsigned workers, BudgetCheck& budget) {
    budget_ = &budget;
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
    for (std::uint64_t b; (b = next_.fetch_add(1)) < nblocks_;) {
      run_block(w, b);
      budget_->after_block(b);
    }
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
  BudgetCheck* budget_ = nullptr;
  std::uint64_t nblocks_ = 0;
  std::atomic<std::uint64_t> next_{0};
  std::uint64_t gen_ = 0;
  unsigned active_ = 0;  // helpers still to join the current launch
  unsigned busy_ = 0;    // helpers working on it
  bool stop_ = false;
};

}  // namespace
}  // namespace sched

using namespace sched;

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
  BudgetCheck budget(l, nblocks);
  if (workers <= 1) {
    Worker& w = this_worker();
    setup_launch(w, l);
    for (std::uint64_t i = 0; i < nblocks; ++i) {
      run_block(w, i);
      budget.after_block(i + 1);
    }
    return kOk;
  }
  static Pool pool;
  pool.run(l, nblocks, workers, budget);
  return kOk;
}

}  // namespace w64::rt
