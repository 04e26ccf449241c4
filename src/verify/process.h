// Running a compiler: the one place verify touches processes, behind an interface so the
// classification and error mapping can be unit-tested with canned compiler output.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace ferry::verify {

struct ProcessResult {
  int exit_code = -1;        // the child's status; -1 when it was killed or could not start
  bool timed_out = false;    // killed after the timeout (with its whole process group)
  bool launch_failed = false;  // the program could not be started (output says why)
  std::string output;        // stdout and stderr, interleaved as the child wrote them
  double seconds = 0;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // Runs argv[0] (searched on PATH) in `cwd`. Must be safe to call from several threads.
  [[nodiscard]] virtual ProcessResult run(const std::vector<std::string>& argv,
                                          const std::filesystem::path& cwd,
                                          std::chrono::milliseconds timeout) const = 0;
};

// The real one: posix_spawn in a new process group; on timeout the group is killed.
class SubprocessRunner final : public ProcessRunner {
 public:
  [[nodiscard]] ProcessResult run(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                  std::chrono::milliseconds timeout) const override;
};

// Finds an executable: `name` itself when it contains a '/', else on PATH; empty when absent.
[[nodiscard]] std::filesystem::path find_program(const std::string& name);

}  // namespace ferry::verify
