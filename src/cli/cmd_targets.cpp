#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "targets/target.h"

namespace ferry::cli {

std::function<int()> setup_targets(CLI::App& /*sub*/) {
  return [] {
    std::cout << "Migration targets (ferry migrate --to NAME):\n";
    for (const auto& t : targets::list_targets())
      std::cout << fmt::format("  {:<10} from {:<6} {}\n", t.name, t.source_dialect, t.summary);
    return kExitOk;
  };
}

}  // namespace ferry::cli
