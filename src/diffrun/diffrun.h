// `ferry diffrun`: build and run a reference program and its port on the same inputs, compare
// what they print and write (compare.h), and time them (runner.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diffrun/compare.h"
#include "diffrun/runner.h"

namespace ferry::diffrun {

struct Side {
  std::string build;  // shell command, may be empty
  std::string run;    // shell command
  std::string dir = ".";
};

struct Spec {
  Side ref;
  Side port;
  std::vector<std::string> files;  // compared, relative to each side's dir
  std::string stdin_file;
  bool compare_stdout = true;
  std::vector<std::string> ignore;  // regexes (ECMAScript) of lines to drop from every comparison
  Tolerance tol;
  std::size_t max_report = 10;
  int runs = 1;
  double timeout_s = 600;
  double build_timeout_s = 1800;
};

// Reads a JSON spec: {"ref": {"build", "run", "dir"}, "port": {...}, "files": [...],
// "stdin", "compare_stdout", "ignore": [...], "rtol", "atol", "ulp", "ulp_float", "nan_equal",
// "max_report", "runs", "timeout", "build_timeout"}. Relative dirs and stdin are taken from the
// spec file's folder. Throws std::invalid_argument.
[[nodiscard]] Spec load_spec(const std::string& path);

struct SideResult {
  RunResult build;
  bool built = true;
  std::vector<RunResult> runs;
  double median_s = 0;
};

struct FileComparison {
  std::string name;
  bool ref_exists = false;
  bool port_exists = false;
  CompareResult result;
};

struct Outcome {
  SideResult ref;
  SideResult port;
  bool exit_codes_match = false;
  bool stdout_compared = false;
  CompareResult out;
  std::vector<FileComparison> files;
  double ratio = 0;     // port median / reference median; 0 when unknown
  std::string verdict;  // "same", "different", "build-failed", "run-failed"
  [[nodiscard]] bool same() const { return verdict == "same"; }
};

// `log` receives progress lines (may be null).
[[nodiscard]] Outcome run_diff(const Spec& spec, const std::function<void(const std::string&)>& log = {});

[[nodiscard]] nlohmann::json to_json(const Spec& spec, const Outcome& o);
[[nodiscard]] std::string to_text(const Spec& spec, const Outcome& o);

}  // namespace ferry::diffrun
