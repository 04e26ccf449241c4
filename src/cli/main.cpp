#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "core/text.h"

int main(int argc, char** argv) {
  using namespace ferry::cli;
  CLI::App app{"ferry: move GPU code between CUDA, HIP and other ecosystems, and prove it works"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ferry ") + FERRY_VERSION);
  std::function<int()> run;
  for (const Command& c : commands()) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.description));
    auto fn = c.setup(*sub);
    sub->callback([&run, fn] { run = fn; });
  }
  if (argc >= 2 && argv[1][0] != '-') {
    const std::string_view given = argv[1];
    bool known = false;
    std::string_view best;
    std::size_t best_d = 99;
    for (const Command& c : commands()) {
      if (c.name == given) known = true;
      const std::size_t d = ferry::edit_distance(given, c.name);
      if (d < best_d) best_d = d, best = c.name;
    }
    if (!known) {
      std::fprintf(stderr, "ferry: error: unknown command '%s'", argv[1]);
      if (best_d <= 2) std::fprintf(stderr, "; did you mean '%.*s'?", static_cast<int>(best.size()), best.data());
      std::fprintf(stderr, "\nrun 'ferry --help' for the list of commands\n");
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitUsage;
  }
  try {
    return run ? run() : kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferry: error: %s\n", e.what());
    return kExitUsage;
  }
}
