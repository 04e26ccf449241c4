#include "core/phase_times.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace ferry {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void PhaseTimes::add(std::string_view name, double seconds) {
  const std::lock_guard lock(mutex_);
  for (auto& [n, s] : rows_)
    if (n == name) {
      s += seconds;
      return;
    }
  rows_.emplace_back(std::string(name), seconds);
}

std::string PhaseTimes::table() const {
  std::vector<std::pair<std::string, double>> rows;
  {
    const std::lock_guard lock(mutex_);
    rows = rows_;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  double total = 0;
  for (const auto& r : rows) total += r.second;
  std::string out = "   cpu s       %  phase\n";
  char line[160];
  for (const auto& [name, s] : rows) {
    std::snprintf(line, sizeof line, "%8.3f  %5.1f%%  %s\n", s, total > 0 ? 100 * s / total : 0.0, name.c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "%8.3f  100.0%%  total\n", total);
  return out + line;
}

}  // namespace ferry
