// CPU time per named phase of a migration (`ferry migrate --timings`): where a run's time goes,
// pass by pass, as a table that can be reproduced on a loaded machine (thread CPU time, not wall
// time). Off unless asked for: every reader takes a null PhaseTimes* and then does nothing.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ferry {

// CPU seconds of the calling thread so far.
[[nodiscard]] double thread_cpu_seconds();

class PhaseTimes {
 public:
  // Adds `seconds` to phase `name` (the first call fixes its place in the table). Thread-safe:
  // a tree's workers add to one table.
  void add(std::string_view name, double seconds);
  // One row per phase, largest first: seconds, share of the total, name; then the total.
  [[nodiscard]] std::string table() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, double>> rows_;
};

// Times consecutive phases of one thread: lap(name) charges the time since the previous lap (or
// since construction) to `name`. With null times it does nothing and reads no clock.
class PhaseClock {
 public:
  explicit PhaseClock(PhaseTimes* times) : times_(times), last_(times ? thread_cpu_seconds() : 0) {}
  void lap(std::string_view name) {
    if (!times_) return;
    const double now = thread_cpu_seconds();
    times_->add(name, now - last_);
    last_ = now;
  }
  // Starts the next phase here, charging the time since the last lap to none (a callee timed it).
  void reset() {
    if (times_) last_ = thread_cpu_seconds();
  }

 private:
  PhaseTimes* times_;
  double last_;
};

}  // namespace ferry
