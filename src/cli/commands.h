// `ferry` subcommands. Each lives in its own cmd_<name>.cpp and is listed once in commands.cpp.
// This folder is the only place that parses argv; errors thrown by the modules are turned into
// "ferry: error: ..." and a non-zero exit code by main.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}
namespace ferry::targets {
struct Options;
}

namespace ferry::cli {

// Exit codes shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;  // ran, and found what the command fails on
inline constexpr int kExitUsage = 2;     // bad arguments or input

struct Command {
  std::string_view name;
  std::string_view description;
  // Adds the subcommand's options to `sub`; the returned function runs it and gives the exit code.
  std::function<std::function<int()>(CLI::App& sub)> setup;
};

[[nodiscard]] const std::vector<Command>& commands();

// Registers every target's own options (targets::TargetInfo::options) on `sub`, writing what the
// user gives into `options.values`; the target checks them when it is made (an option of another
// target is an error there).
void add_target_options(CLI::App& sub, targets::Options& options);

// One entry per file.
std::function<int()> setup_analyze(CLI::App& sub);
std::function<int()> setup_diffrun(CLI::App& sub);
std::function<int()> setup_migrate(CLI::App& sub);
std::function<int()> setup_opcheck(CLI::App& sub);
std::function<int()> setup_report(CLI::App& sub);
std::function<int()> setup_rules(CLI::App& sub);
std::function<int()> setup_scan(CLI::App& sub);
std::function<int()> setup_serve(CLI::App& sub);
std::function<int()> setup_status(CLI::App& sub);
std::function<int()> setup_targets(CLI::App& sub);
std::function<int()> setup_verify(CLI::App& sub);
std::function<int()> setup_wave64(CLI::App& sub);

}  // namespace ferry::cli
