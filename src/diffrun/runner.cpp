#include "diffrun/runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

extern char** environ;

namespace ferry::diffrun {
namespace {

using Clock = std::chrono::steady_clock;

class Pipe {
 public:
  Pipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_read() {
    if (fds_[0] >= 0) ::close(fds_[0]);
    fds_[0] = -1;
  }
  void close_write() {
    if (fds_[1] >= 0) ::close(fds_[1]);
    fds_[1] = -1;
  }

 private:
  int fds_[2] = {-1, -1};
};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGPIPE: return "SIGPIPE";
    default: return "signal";
  }
}

}  // namespace

double group_cpu_seconds(int pgid) {
  static const double tick = static_cast<double>(::sysconf(_SC_CLK_TCK));
  double total = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(it->path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;  // gone meanwhile
    // "PID (COMM) STATE PPID PGRP ... UTIME STIME CUTIME CSTIME ...": COMM may hold spaces and
    // parentheses, so the fields are counted from the last ')'.
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(line.substr(close + 1));
    std::string state;
    long long ppid = 0, pgrp = 0, skip = 0, utime = 0, stime = 0, cutime = 0, cstime = 0;
    fields >> state >> ppid >> pgrp;
    for (int k = 0; k < 8; ++k) fields >> skip;  // session .. cmajflt
    fields >> utime >> stime >> cutime >> cstime;
    if (!fields || pgrp != pgid) continue;
    total += static_cast<double>(utime + stime + cutime + cstime) / tick;
  }
  return total;
}

std::string RunResult::status() const {
  if (!started) return "could not start: " + error;
  if (cpu_limited) return fmt::format("CPU limit reached after {:.3g} s of CPU time ({:.3g} s)", cpu_seconds, seconds);
  if (timed_out) return fmt::format("timed out after {:.3g} s", seconds);
  if (signal != 0) return fmt::format("signal {} ({})", signal, signal_name(signal));
  return fmt::format("exit {}", exit_code);
}

RunResult run_command(const RunRequest& req) {
  RunResult res;
  Pipe out, err;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  const std::string in_path = req.stdin_file.empty() ? "/dev/null" : req.stdin_file;
  posix_spawn_file_actions_addopen(&fa, 0, in_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out.write_end(), 1);
  posix_spawn_file_actions_adddup2(&fa, err.write_end(), 2);
  posix_spawn_file_actions_addchdir_np(&fa, req.workdir.c_str());
  // Own process group (so a timeout kills the whole tree), default signal dispositions.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::string sh = "/bin/sh", dash_c = "-c", cmd = req.command;
  if (req.cpu_limit_s > 0) {
    // The CPU limit is set by the shell itself, before it starts anything: dash forks a command
    // with an assignment prefix (`W64_TIME=1 ./prog`) instead of exec'ing it, and a prlimit of the
    // shell's pid from here (below) could come after that fork on a loaded machine, leaving the
    // program without a limit (a suite's programs then ran on to the wall-clock backstop).
    const auto soft = static_cast<long long>(std::ceil(req.cpu_limit_s));
    cmd = fmt::format("ulimit -H -t {} 2>/dev/null; ulimit -S -t {} 2>/dev/null; ", soft + 5, soft) + cmd;
  }
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  pid_t pid = -1;
  const auto start = Clock::now();
  const int rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  out.close_write();
  err.close_write();
  if (rc != 0) {
    res.error = std::strerror(rc);
    return res;
  }
  res.started = true;
  if (req.cpu_limit_s > 0) {
    const auto soft = static_cast<rlim_t>(std::ceil(req.cpu_limit_s));
    const rlimit lim{soft, soft + 5};
    ::prlimit(pid, RLIMIT_CPU, &lim, nullptr);
  }

  // (glibc's posix_spawn reports a failed chdir or stdin open through rc above.)
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(req.timeout_s));
  struct Stream {
    int fd;
    std::string* text;
    bool* truncated;
  };
  Stream streams[2] = {{out.read_end(), &res.out, &res.out_truncated}, {err.read_end(), &res.err, &res.err_truncated}};
  bool open[2] = {true, true};
  bool reaped = false;
  int status = 0;
  rusage usage{};
  double group_cpu = 0;  // the group's CPU time when the wall clock stopped it
  char buf[65536];
  while (open[0] || open[1] || !reaped) {
    int wait_ms = 50;
    if (req.timeout_s > 0 && !reaped) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        // The shell's rusage counts only the children it waited for: a program it started (any
        // command but a lone simple one, which dash execs) dies with it unwaited, its CPU time
        // lost. So the group's time is read before the kill.
        group_cpu = group_cpu_seconds(pid);
        ::kill(-pid, SIGKILL);
        res.timed_out = true;
        ::wait4(pid, &status, 0, &usage);
        reaped = true;
        continue;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, 50));
    }
    pollfd pfd[2];
    nfds_t n = 0;
    int which[2];
    for (int s = 0; s < 2; ++s)
      if (open[s]) pfd[n] = {streams[s].fd, POLLIN, 0}, which[n++] = s;
    if (n > 0) {
      const int pr = ::poll(pfd, n, wait_ms);
      if (pr < 0 && errno != EINTR) break;
      for (nfds_t k = 0; pr > 0 && k < n; ++k) {
        if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        Stream& st = streams[which[k]];
        const ssize_t got = ::read(st.fd, buf, sizeof buf);
        if (got <= 0) {
          if (got < 0 && errno == EINTR) continue;
          open[which[k]] = false;
          continue;
        }
        const std::size_t room = req.max_output > st.text->size() ? req.max_output - st.text->size() : 0;
        st.text->append(buf, std::min<std::size_t>(room, static_cast<std::size_t>(got)));
        if (static_cast<std::size_t>(got) > room) *st.truncated = true;
      }
    } else if (!reaped) {
      ::usleep(static_cast<useconds_t>(wait_ms) * 1000);
    }
    if (!reaped && ::wait4(pid, &status, WNOHANG, &usage) == pid) {
      reaped = true;
      ::kill(-pid, SIGKILL);  // what it left running (it would hold our pipes open)
    }
  }
  if (!reaped) {
    group_cpu = group_cpu_seconds(pid);
    ::kill(-pid, SIGKILL);
    ::wait4(pid, &status, 0, &usage);
  }
  res.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  res.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  res.cpu_seconds = std::max(res.cpu_seconds, group_cpu);
  if (res.timed_out) return res;
  // Past the CPU limit: SIGXCPU (by itself, or as a shell's 128+N), or the hard limit's SIGKILL.
  // rusage counts a little less CPU than the kernel's limit does (116 s at a 120 s limit seen), so
  // SIGXCPU alone decides; a SIGKILL needs most of the limit used.
  if (req.cpu_limit_s > 0) {
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : (WIFEXITED(status) ? WEXITSTATUS(status) - 128 : 0);
    if (sig == SIGXCPU || (sig == SIGKILL && res.cpu_seconds >= 0.9 * req.cpu_limit_s)) {
      res.timed_out = res.cpu_limited = true;
      return res;
    }
  }
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
  // A shell whose last command died of a signal exits 128+N (dash execs a lone simple command,
  // so `sh -c ./prog` reports the signal itself). The exit code is kept as the shell gave it.
  return res;
}

nlohmann::json to_json(const RunResult& r, bool with_output) {
  nlohmann::json j = {{"status", r.status()},
                      {"started", r.started},
                      {"timed_out", r.timed_out},
                      {"seconds", r.seconds},
                      {"cpu_seconds", r.cpu_seconds}};
  if (r.cpu_limited) j["cpu_limited"] = true;
  if (r.started && !r.timed_out) {
    if (r.signal != 0) j["signal"] = r.signal;
    else j["exit_code"] = r.exit_code;
  }
  if (with_output) {
    j["stderr_tail"] = r.err.size() > 2000 ? r.err.substr(r.err.size() - 2000) : r.err;
    if (r.out_truncated) j["stdout_truncated"] = true;
  }
  return j;
}

}  // namespace ferry::diffrun
