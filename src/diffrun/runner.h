// Running one command of diffrun: `/bin/sh -c COMMAND` in a working directory, with stdin from
// a file (or /dev/null), stdout and stderr captured, under a wall-clock limit.
//
// Commands are shell text on purpose (users write `make -C port && ./port --n 4`), and they are
// always run by /bin/sh -c explicitly: Ferry never splices its own values into them. The
// command runs in a process group of its own; on timeout the whole group is killed (SIGKILL), and
// when the command exits, anything it left running in that group is killed too, so a run never
// hangs diffrun.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace ferry::diffrun {

struct RunRequest {
  std::string command;
  std::string workdir = ".";
  std::string stdin_file;  // empty: /dev/null
  double timeout_s = 600;  // <= 0: no limit
  // CPU seconds the command's processes may use each (RLIMIT_CPU, set on the spawned process and
  // inherited by what it starts); <= 0: no limit. Unlike the wall-clock limit it does not count
  // the time other processes of a loaded machine take. A process past it is killed (SIGXCPU,
  // then SIGKILL) and the run counts as timed out.
  double cpu_limit_s = 0;
  std::size_t max_output = std::size_t{64} << 20;  // bytes kept per stream; the rest is drained
};

struct RunResult {
  bool started = false;  // false: spawning failed (error says why)
  std::string error;
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it (not counting our timeout kill)
  bool timed_out = false;
  bool cpu_limited = false;  // timed out on the CPU limit, not the wall clock
  double seconds = 0;
  // User + system time of the command and the children it waited for; for a run stopped on the
  // wall clock, of every process of its group (group_cpu_seconds) at the moment it was stopped.
  double cpu_seconds = 0;
  std::string out;
  std::string err;
  bool out_truncated = false;
  bool err_truncated = false;

  [[nodiscard]] bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit 0", "exit 3", "signal 11 (SIGSEGV)", "timed out after 2 s", "could not start: ..."
  [[nodiscard]] std::string status() const;
};

[[nodiscard]] RunResult run_command(const RunRequest& request);

// User + system seconds of the processes now in process group `pgid`, with those of the children
// each has waited for (Linux /proc/PID/stat; 0 where /proc cannot be read).
[[nodiscard]] double group_cpu_seconds(int pgid);

[[nodiscard]] nlohmann::json to_json(const RunResult& r, bool with_output);

}  // namespace ferry::diffrun
