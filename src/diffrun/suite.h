// `ferry diffrun --wave64 --suite DIR`: every program of a tree, reference and port, on the wave64
// CPU runtime; one verdict per program (diffrun.h), a table, JSON and an HTML page.
//
// A program is a folder with .cu/.hip sources (or C++ files holding kernels, as HIP corpora
// name them), one of which defines main() (a Makefile or CMakeLists.txt is usual); its sources are every C/C++/CUDA/HIP
// file of that folder (so .cpp helpers link), its include folders the folder itself and the Common/common/include/inc
// folders beside it or above it up to the suite root, its arguments those of the Makefile's `run` target (or a CMake
// add_test COMMAND) where present. A list file names programs instead: one per line,
// `FOLDER [ARGS...]` relative to the suite root, `#` comments.
//
// Programs run in parallel (jobs), each build and run bounded in time; a program whose result
// file exists is skipped unless `force` (resumable).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diffrun/diffrun.h"
#include "diffrun/wave64_sides.h"

namespace ferry::diffrun {

struct SuiteProgram {
  std::string name;  // folder relative to the suite root ("." for the root), FOLDER/STEM when it has several mains
  std::string dir;   // folder relative to the suite root
  std::vector<std::string> sources;
  std::vector<std::string> include_dirs;  // relative to the program's folder
  std::string args;                       // shell words
  std::string args_from;                  // "Makefile run target", "CMake add_test", "list file", ""
  std::string cxx_std;                    // "gnu++20" when its CMake asks for C++20; empty: the driver's
  std::vector<std::string> defines;       // its build's macro definitions (build_flags.h), both sides
  std::string defines_from;               // the file that gives them ("HIP-nbody-block.sh", "Makefile", ...)
};

// Finds the programs of `root` (or reads `list_file` when not empty). Sorted by name.
[[nodiscard]] std::vector<SuiteProgram> find_programs(const std::filesystem::path& root,
                                                      const std::filesystem::path& list_file = {});

// The arguments of a Makefile's `run` target (`./$(EXE) -n 4` -> "-n 4"); empty when none.
[[nodiscard]] std::string makefile_run_args(const std::string& makefile_text);

struct SuiteOptions {
  std::filesystem::path ref_root;   // the originals
  std::filesystem::path port_root;  // the ports, same layout
  std::filesystem::path list_file;
  std::filesystem::path results;  // folder of per-program JSON, results.json, results.html
  Wave64Sides w64;                // sides' waves, APIs, flags; sources/args are per program
  Spec base;                      // tolerances, ignore, timeouts
  std::string extra_args;         // appended to every program's arguments (a size option)
  unsigned jobs = 1;
  bool force = false;
  // --bisect: for each DIFFERENT program, find the first kernel launch whose outputs differ
  // (launch_bisect.h) and, when unfixed_root is set, switch the port's wave64 fixes off one at a
  // time (bisect.h) against that tree, the originals migrated without fixes.
  bool bisect = false;
  std::filesystem::path unfixed_root;
  std::size_t bisect_max = 40;
};

struct SuiteEntry {
  SuiteProgram program;
  std::string verdict;  // diffrun's, or "not-runnable" (no sources)
  double ref_s = 0;
  double port_s = 0;
  std::string first_difference;  // the first difference or the failure, one line
  bool resumed = false;          // taken from an earlier run's result
  nlohmann::json detail;         // diffrun's JSON report of the program
};

// Runs every program; `log` gets one line per finished program (may be null).
[[nodiscard]] std::vector<SuiteEntry> run_suite(const SuiteOptions& o,
                                                const std::function<void(const std::string&)>& log = {});

// One line on why a program's outcome is not SAME: the build error, the side that failed or
// timed out, the first difference.
[[nodiscard]] std::string summarize(const Spec& s, const Outcome& o);

[[nodiscard]] std::string suite_table(const std::vector<SuiteEntry>& entries);
[[nodiscard]] nlohmann::json suite_json(const SuiteOptions& o, const std::vector<SuiteEntry>& entries);
[[nodiscard]] std::string suite_html(const nlohmann::json& suite);

}  // namespace ferry::diffrun
