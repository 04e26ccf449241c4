#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "analysis/profile.h"
#include "cli/commands.h"
#include "targets/target.h"

namespace ferry::cli {

std::function<int()> setup_targets(CLI::App& /*sub*/) {
  return [] {
    std::cout << "Migration targets (ferry migrate --to NAME):\n";
    for (const targets::TargetInfo* t : targets::list_targets())
      std::cout << fmt::format("  {:<10} from {:<6} {}\n", t->name, t->source_dialect, t->summary);
    std::cout << "\nHardware profiles (--arch / --target NAME):\n";
    std::cout << fmt::format("  {:<8} {:<7} {:>5} {:>10} {:>10} {:>8} {:>5}  {:<24} {}\n", "name", "vendor",
                             "wave", "lds/block", "lds max", "threads", "regs", "flag", "description");
    for (const auto& p : analysis::profiles())
      std::cout << fmt::format("  {:<8} {:<7} {:>5} {:>10} {:>10} {:>8} {:>5}  {:<24} {}\n", p.name, p.vendor,
                               p.wave_size, p.lds_static_bytes, p.lds_max_bytes, p.max_threads_per_block,
                               p.max_regs_per_thread, p.flag, p.description);
    return kExitOk;
  };
}

}  // namespace ferry::cli
