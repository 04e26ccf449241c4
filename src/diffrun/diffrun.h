// `ferry diffrun`: build and run a reference program and its port on the same inputs, compare
// what they print and write (compare.h), and time them (runner.h).
#pragma once

#include <functional>
#include <regex>
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
  double cpu_timeout_s = 0;  // CPU seconds per run (RunRequest::cpu_limit_s); 0: none
  double build_timeout_s = 1800;
  // A side whose output has a line matching one of these failed its own check (self-checks print
  // "Test FAILED", "Result = FAIL", a checksum mismatch): the verdict cannot be SAME. Empty with
  // check_self_reports = false: no such check.
  bool check_self_reports = true;
  std::vector<std::string> fail_patterns;  // more regexes (ECMAScript, case-sensitive)
  // When stdout alone makes the verdict DIFFERENT and both sides exited 0: run the reference once
  // more (same limits) and leave out what its two runs do not repeat (compare_with_rerun); SAME
  // when the rest agrees, with `Outcome::note` saying what was left out.
  bool rerun_reference = false;
};

// The lines the self-check looks for by default (docs/diffrun.md "Verdicts").
[[nodiscard]] const std::vector<std::string>& default_fail_patterns();

// The first line of `text` that reports a failed self-check (default patterns plus `extra`),
// skipping lines that match `ignore`; empty when none. A count of zero ("FAILED: 0",
// "0 mismatches") is no failure.
[[nodiscard]] std::string find_self_reported_failure(const std::string& text, const std::vector<std::regex>& extra,
                                                     const std::vector<std::regex>& ignore);

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
  // Why this side's first run failed, empty when it succeeded: "exit 1", "signal 11 (SIGSEGV)",
  // "timed out after 150 s", "printed 'Test FAILED'".
  std::string failure;
  bool timed_out = false;
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
  double ratio = 0;  // port median / reference median; 0 when unknown
  // "same": both ran to completion with exit 0, no self-reported failure, equal outputs.
  // "different": one side failed (the other did not), or exit codes or outputs differ.
  // "both-failed": both sides crashed, exited non-zero or reported a failed self-check.
  // "timeout": a side ran out of time (timeout_side says which). "build-failed": a build failed.
  // "unsupported": every side whose build failed stopped on a construct the wave64 runtime names
  // as one it cannot run (FRY9412 a library, FRY9414 an API name, FRY5601 inline assembly,
  // FRY9404 a HIP tile wider than the wavefront);
  // `unsupported` says which, `unsupported_where` where (FILE:LINE), `unsupported_code` the code.
  std::string verdict;
  std::string unsupported;
  std::string unsupported_where;
  std::string unsupported_code;
  std::string timeout_side;       // "reference", "port", "both" (verdict "timeout")
  std::string build_failed_side;  // "reference", "port", "both" (verdict "build-failed")
  // The reference's second run (rerun_reference), its status, and what it left out
  // ("2 lines varied between runs of the original; 5 lines compared").
  bool ref_rerun = false;
  std::string ref_rerun_status;
  std::string note;
  [[nodiscard]] bool same() const { return verdict == "same"; }
};

// `log` receives progress lines (may be null).
[[nodiscard]] Outcome run_diff(const Spec& spec, const std::function<void(const std::string&)>& log = {});

// The construct a failed `ferry wave64 build` names as one the runtime cannot run, from its
// output: the first FRY9412 (the library), FRY9414 (the API name), FRY5601 (inline assembly) or
// FRY9404 (a HIP tile wider than the wavefront)
// diagnostic. Empty `what` when there is none (a build that failed for another reason).
struct Unsupported {
  std::string what;   // "cuBLAS", "cudaKernelNodeParams", "inline assembly"
  std::string where;  // FILE:LINE of the include, use or asm statement
  std::string code;   // "FRY9412", "FRY9414", "FRY5601", "FRY9404"
};
[[nodiscard]] Unsupported unsupported_in_build(const std::string& build_output);
// The same from a run's stderr: the runtime stopped the program itself, FRY9402 (a launch that
// needs more CPU time than its limit leaves: work sized for a GPU) or FRY9403 (device memory the
// host cannot back). When both sides stop so, the verdict is UNSUPPORTED, not BOTH FAILED.
[[nodiscard]] Unsupported unsupported_in_run(const std::string& run_stderr);

[[nodiscard]] nlohmann::json to_json(const Spec& spec, const Outcome& o);
[[nodiscard]] std::string to_text(const Spec& spec, const Outcome& o);

}  // namespace ferry::diffrun
