// A progress bar for long runs on a terminal: files done/total, rate in MB/s and ETA, redrawn in
// place on one line of a stream (stderr). Engines never print: they take plain callbacks in their
// options (migrate::TreeOptions, scan::ScanOptions, verify::VerifyOptions) and the CLI wires
// them to a Progress with start_hook()/done_hook().
//
// Thread-safe: advance() is called from worker threads. Redraws are throttled (every 100 ms by
// default) and the clock is injected, so tests drive it with a fake clock and a string stream.
// A disabled Progress (stderr not a TTY, or --quiet) writes nothing at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>

namespace ferry::report {

class Progress {
 public:
  using Clock = std::function<double()>;  // monotonic seconds

  // `label`: what runs ("migrate"); `enabled`: false makes every call a no-op.
  Progress(std::ostream& out, std::string label, bool enabled, Clock clock = steady_seconds,
           double redraw_interval_s = 0.1);
  ~Progress();  // finishes the line if finish() was not called
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // The work ahead; `bytes` 0 when unknown (then rate and ETA count items, not bytes).
  void start(std::size_t items, std::uintmax_t bytes);
  // One item done (any thread).
  void advance(std::uintmax_t bytes);
  // Draws the final state and ends the line; later calls do nothing.
  void finish();

  // Callbacks for the engines' options.
  [[nodiscard]] std::function<void(std::size_t, std::uintmax_t)> start_hook();
  [[nodiscard]] std::function<void(std::uintmax_t)> done_hook();

  // The text of the bar for a state (no carriage return), e.g.
  // "migrate [########------------]  120/400 files  12.3 MB/s  ETA 0:07".
  [[nodiscard]] static std::string render(const std::string& label, std::size_t done, std::size_t total,
                                          std::uintmax_t bytes_done, std::uintmax_t bytes_total, double elapsed_s);

  [[nodiscard]] static double steady_seconds();

 private:
  void draw_locked(bool final);

  std::ostream& out_;
  std::string label_;
  bool enabled_;
  Clock clock_;
  double interval_;
  std::mutex mu_;
  double t0_ = 0, last_draw_ = -1;
  std::size_t total_ = 0, done_ = 0;
  std::uintmax_t bytes_total_ = 0, bytes_done_ = 0;
  bool started_ = false, finished_ = false;
};

// True when stderr is a terminal (a progress bar there is wanted).
[[nodiscard]] bool stderr_is_terminal();

}  // namespace ferry::report
