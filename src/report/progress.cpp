#include "report/progress.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>
#include <unistd.h>

namespace ferry::report {

namespace {

constexpr int kBarWidth = 24;

std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

double Progress::steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::ostream& out, std::string label, bool enabled, Clock clock, double redraw_interval_s)
    : out_(out), label_(std::move(label)), enabled_(enabled), clock_(std::move(clock)), interval_(redraw_interval_s) {}

Progress::~Progress() {
  try {
    finish();
  } catch (...) {  // a destructor must not throw; a lost progress line is harmless
  }
}

void Progress::start(std::size_t items, std::uintmax_t bytes) {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  total_ = items;
  bytes_total_ = bytes;
  done_ = 0;
  bytes_done_ = 0;
  t0_ = clock_();
  started_ = true;
  draw_locked(false);
}

void Progress::advance(std::uintmax_t bytes) {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  if (!started_) {  // an engine that never announced its total: count anyway
    t0_ = clock_();
    started_ = true;
  }
  ++done_;
  bytes_done_ += bytes;
  if (clock_() - last_draw_ >= interval_) draw_locked(false);
}

void Progress::finish() {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  if (finished_ || !started_) return;
  finished_ = true;
  draw_locked(true);
}

void Progress::draw_locked(bool final) {
  const double now = clock_();
  last_draw_ = now;
  // "\r" + clear-to-end-of-line: the bar is redrawn in place.
  out_ << '\r' << render(label_, done_, total_, bytes_done_, bytes_total_, now - t0_) << "\x1b[K";
  if (final) out_ << '\n';
  out_.flush();
}

std::function<void(std::size_t, std::uintmax_t)> Progress::start_hook() {
  return [this](std::size_t items, std::uintmax_t bytes) { start(items, bytes); };
}

std::function<void(std::uintmax_t)> Progress::done_hook() {
  return [this](std::uintmax_t bytes) { advance(bytes); };
}

std::string Progress::render(const std::string& label, std::size_t done, std::size_t total, std::uintmax_t bytes_done,
                             std::uintmax_t bytes_total, double elapsed_s) {
  const double fraction = bytes_total > 0
                              ? std::min(1.0, static_cast<double>(bytes_done) / static_cast<double>(bytes_total))
                          : total > 0 ? std::min(1.0, static_cast<double>(done) / static_cast<double>(total))
                                      : 0.0;
  const int filled = static_cast<int>(fraction * kBarWidth);
  std::string s = label + " [" + std::string(static_cast<std::size_t>(filled), '#') +
                  std::string(static_cast<std::size_t>(kBarWidth - filled), '-') + "] ";
  const std::string count = fmt::format("{}", total);
  s += fmt::format("{:>{}}/{} files", done, count.size(), total);
  if (elapsed_s > 0 && bytes_done > 0)
    s += fmt::format("  {:.1f} MB/s", static_cast<double>(bytes_done) / 1e6 / elapsed_s);
  else if (elapsed_s > 0 && bytes_total == 0 && done > 0)
    s += fmt::format("  {:.1f} files/s", static_cast<double>(done) / elapsed_s);
  if (done >= total && total > 0) s += fmt::format("  done in {}", clock_text(elapsed_s));
  else if (fraction > 0 && elapsed_s > 0) s += "  ETA " + clock_text(elapsed_s * (1 - fraction) / fraction);
  else s += "  ETA --:--";
  return s;
}

}  // namespace ferry::report
