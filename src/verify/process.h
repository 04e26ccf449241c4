// Running a compiler: the one place verify touches processes, behind an interface so the
// classification and error mapping can be unit-tested with canned compiler output.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace ferry::verify {

struct ProcessResult {
  int exit_code = -1;          // the child's status; -1 when it was killed or could not start
  bool timed_out = false;      // killed after the timeout (with its whole process group)
  bool launch_failed = false;  // the program could not be started (output says why)
  bool cancelled = false;      // stopped (with its process group) because the caller cancelled
  std::string output;          // stdout and stderr, interleaved as the child wrote them
  double seconds = 0;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // Runs argv[0] (searched on PATH) in `cwd`. Must be safe to call from several threads.
  [[nodiscard]] virtual ProcessResult run(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                          std::chrono::milliseconds timeout) const = 0;
};

// The real one: posix_spawn in a new process group; on timeout the group is killed. With a
// cancel flag, the group is also killed (within about 100 ms) once the flag is set, and nothing
// more is started after it.
class SubprocessRunner final : public ProcessRunner {
 public:
  SubprocessRunner() = default;
  explicit SubprocessRunner(const std::atomic<bool>* cancel) : cancel_(cancel) {}
  [[nodiscard]] ProcessResult run(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                                  std::chrono::milliseconds timeout) const override;

 private:
  const std::atomic<bool>* cancel_ = nullptr;
};

// Finds an executable: `name` itself when it contains a '/', else on PATH; empty when absent.
[[nodiscard]] std::filesystem::path find_program(const std::string& name);

}  // namespace ferry::verify
