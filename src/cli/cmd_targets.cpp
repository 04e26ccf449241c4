#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "analysis/profile.h"
#include "cli/commands.h"
#include "targets/hip/toolchain.h"
#include "targets/target.h"

namespace ferry::cli {

std::function<int()> setup_targets(CLI::App& /*sub*/) {
  return [] {
    std::cout << "Migration targets (ferry migrate --to NAME):\n";
    for (const targets::TargetInfo* t : targets::list_targets())
      std::cout << fmt::format("  {:<10} from {:<6} {}\n", t->name, t->source_dialect, t->summary);
    std::cout << "\nHardware profiles (--arch / --target NAME):\n";
    std::cout << fmt::format("  {:<8} {:<7} {:>5} {:>10} {:>10} {:>8} {:>5}  {:<24} {}\n", "name", "vendor", "wave",
                             "lds/block", "lds max", "threads", "regs", "flag", "description");
    for (const auto& p : analysis::profiles())
      std::cout << fmt::format("  {:<8} {:<7} {:>5} {:>10} {:>10} {:>8} {:>5}  {:<24} {}\n", p.name, p.vendor,
                               p.wave_size, p.lds_static_bytes, p.lds_max_bytes, p.max_threads_per_block,
                               p.max_regs_per_thread, p.flag, p.description);
    std::cout << "\nHIP releases (ferry migrate --to hip --hip-version NAME or X.Y):\n";
    std::cout << fmt::format("  {:<10} {:>4}  {:<9}  {}\n", "name", "hip", "warpSize", "description");
    for (const auto& t : targets::hip::toolchains()) {
      std::string libs;
      for (const auto& [lib, v] : t.libraries) libs += (libs.empty() ? "" : ", ") + lib + " " + v.str();
      std::cout << fmt::format("  {:<10} {:>4}  {:<9}  {}{}\n", t.name, t.hip.str(),
                               t.warp_size_constexpr ? "constexpr" : "runtime", t.description,
                               libs.empty() ? "" : " [" + libs + "]");
    }
    const targets::hip::Toolchain def = targets::hip::resolve_toolchain("");
    std::cout << fmt::format("  default now: {}, chosen by {}\n", def.label(), def.chosen_by);
    return kExitOk;
  };
}

}  // namespace ferry::cli
