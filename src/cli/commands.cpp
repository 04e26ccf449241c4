#include "cli/commands.h"

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
      {"diffrun", "build and run a reference and its port, compare outputs within tolerances, time both", setup_diffrun},
      {"verify", "compile a migrated tree with the real toolchain and classify each failure", setup_verify},
      {"wave64", "build and run a HIP or CUDA program on the CPU with 64-lane wavefronts (build|run)", setup_wave64},
  };
  return kCommands;
}

}  // namespace ferry::cli
