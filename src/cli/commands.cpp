#include "cli/commands.h"

#include <map>
#include <string>

#include <CLI/CLI.hpp>

#include "targets/target.h"

namespace ferry::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> kCommands = {
      {"migrate", "migrate a file or a tree to another ecosystem (e.g. --to hip)", setup_migrate},
      {"scan", "inventory a project: files, build systems, GPU libraries, API uses, support, effort", setup_scan},
      {"analyze", "find wave64 and resource hazards of CUDA code on a target profile (--target gfx906)", setup_analyze},
      {"status", "show the rounds of a migrated tree: merges, conflicts, hand edits, verify pass rate", setup_status},
      {"report", "write the report of a migrated tree: --format json|sarif|html", setup_report},
      {"rules", "list or count the mapping rules (--stats)", setup_rules},
      {"targets", "list migration targets and hardware profiles", setup_targets},
      {"diffrun", "build and run a reference and its port, compare outputs within tolerances, time both",
       setup_diffrun},
      {"opcheck", "check operators against a reference per dtype and shape: errors, ULPs, pass/fail, time ratio",
       setup_opcheck},
      {"verify", "compile a migrated tree with the real toolchain and classify each failure", setup_verify},
      {"serve", "open the correction workbench on a migrated tree: review, edit, re-verify, re-run (browser)",
       setup_serve},
      {"wave64", "build and run a HIP or CUDA program on the CPU with 64-lane wavefronts (build|run)", setup_wave64},
  };
  return kCommands;
}

void add_target_options(CLI::App& sub, targets::Options& options) {
  // An option several targets declare is registered once, its help naming every target.
  std::map<std::string_view, std::pair<const targets::OptionSpec*, std::string>> seen;
  std::vector<std::string_view> order;
  for (const targets::TargetInfo* t : targets::list_targets())
    for (const targets::OptionSpec& o : t->options) {
      auto [it, added] = seen.try_emplace(o.name, &o, std::string(t->name));
      if (added) order.push_back(o.name);
      else it->second.second += ", " + std::string(t->name);
    }
  for (const std::string_view name : order) {
    const auto& [o, takers] = seen.at(name);
    const std::string flag = "--" + std::string(name);
    std::string help = std::string(o->help) + " (--to " + takers +
                       (o->flag || o->default_value.empty() ? "" : "; default " + std::string(o->default_value)) + ")";
    const std::string key(name);
    if (o->flag)
      sub.add_flag_callback(
          flag, [&options, key] { options.values[key] = "1"; }, help);
    else
      sub.add_option_function<std::string>(
          flag, [&options, key](const std::string& v) { options.values[key] = v; }, help);
  }
}

}  // namespace ferry::cli
