// The workbench's background jobs (re-verify, re-run a round): a queue with a cap, one worker
// thread (jobs over the same OUT must not overlap: a round writes what verify compiles; each job
// is parallel inside), progress, cancel, and a version counter clients long-poll on.
//
// States: queued -> running -> done | failed | cancelled. Cancelling a queued job drops it; a
// running job sees JobContext::cancelled() (verify kills its compilers' process groups); a job
// that cannot stop half-way (a round) is marked not cancellable while it runs.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

namespace ferry::serve {

class JobQueue;

// What a running job sees of itself.
class JobContext {
 public:
  [[nodiscard]] bool cancelled() const { return cancel_.load(); }
  [[nodiscard]] const std::atomic<bool>& cancel_flag() const { return cancel_; }
  void set_total(std::size_t total);
  void advance();                      // one step done (any thread)
  void note(const std::string& text);  // a line of progress text

 private:
  friend class JobQueue;
  JobContext(JobQueue& q, int id) : queue_(q), id_(id) {}
  JobQueue& queue_;
  int id_;
  std::atomic<bool> cancel_{false};
};

class JobQueue {
 public:
  using Work = std::function<nlohmann::json(JobContext&)>;  // the job's result; throws on failure

  // At most `cap` jobs queued or running at once; `keep` finished jobs are remembered.
  explicit JobQueue(std::size_t cap, std::size_t keep = 50);
  ~JobQueue();  // cancels what is queued or running and joins the worker
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  // The new job's id, or nullopt when `cap` jobs are already waiting or running.
  // `cancellable_while_running`: false for work that must not be stopped half-way.
  [[nodiscard]] std::optional<int> submit(std::string kind, std::string label, Work work,
                                          bool cancellable_while_running = true);
  // False when there is no such job, it has finished, or it cannot be cancelled now.
  bool cancel(int id, std::string* why = nullptr);

  [[nodiscard]] nlohmann::json list() const;                      // {"version", "jobs": [...]}, newest first
  [[nodiscard]] std::optional<nlohmann::json> get(int id) const;  // with its result
  [[nodiscard]] std::uint64_t version() const;
  // Blocks until the version differs from `since` or `timeout` passes; returns the version.
  std::uint64_t wait_for_change(std::uint64_t since, std::chrono::milliseconds timeout) const;
  // Blocks until no job is queued or running (tests, shutdown).
  void drain() const;
  // Cancels every job, refuses new ones and wakes every waiter (server shutdown). Idempotent.
  void shutdown();

 private:
  friend class JobContext;
  struct Job {
    int id = 0;
    std::string kind, label;
    std::string state = "queued";
    bool cancellable_while_running = true;
    std::size_t done = 0, total = 0;
    std::string note;
    std::string error;
    nlohmann::json result;
    double queued_at = 0, started_at = 0, finished_at = 0;
    Work work;
    std::unique_ptr<JobContext> ctx;
  };
  [[nodiscard]] static nlohmann::json describe(const Job& j, bool with_result);
  void worker();
  void bump_locked();  // version++ and wake the waiters
  Job* find_locked(int id);

  std::size_t cap_, keep_;
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  std::condition_variable work_ready_;
  std::deque<std::unique_ptr<Job>> jobs_;  // oldest first
  int next_id_ = 1;
  std::uint64_t version_ = 1;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ferry::serve
