// `ferry serve OUT`: the correction workbench (docs/workbench.md). Prints the URL with its token
// on stdout (the only line there) and serves until Ctrl-C / SIGTERM.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "analysis/profile.h"
#include "cli/commands.h"
#include "project/project.h"
#include "serve/server.h"
#include "verify/verify.h"

namespace fs = std::filesystem;

namespace ferry::cli {
namespace {

struct ServeArgs {
  std::string out;
  int port = 0;
  std::string host = "127.0.0.1";
  std::string arch;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  unsigned timeout_s = 300;
  std::string hipcc = "hipcc";
  std::string nvcc = "nvcc";
  bool no_original_check = false;
  bool no_cache = false;
  std::size_t max_body_mib = 8;
  std::size_t max_jobs = 4;
};

int run_serve(const ServeArgs& a) {
  std::error_code ec;
  const fs::path manifest = fs::path(a.out) / ".ferry" / "manifest.json";
  if (!fs::exists(manifest, ec))
    throw std::invalid_argument(a.out + ": no .ferry/manifest.json: run ferry migrate IN -o " + a.out + " first");
  std::string arch = a.arch;
  std::string target;
  try {
    target = nlohmann::json::parse(project::read_file(manifest)).value("target", "");
  } catch (const std::exception&) {
  }
  if (arch.empty()) arch = target == "cuda" ? "sm_90" : "gfx906";  // as ferry verify

  serve::ServeOptions o;
  o.out = a.out;
  o.host = a.host;
  o.port = a.port;
  o.verify.profiles = analysis::parse_profile_list(arch);
  o.verify.jobs = std::max(1u, a.jobs);
  o.verify.timeout = std::chrono::seconds(std::max(1u, a.timeout_s));
  o.verify.hipcc = verify::locate_toolchain(a.hipcc, "/usr/bin/hipcc");
  o.verify.nvcc = verify::locate_toolchain(a.nvcc, "/usr/local/cuda/bin/nvcc");
  o.verify.check_original = !a.no_original_check;
  if (!a.no_cache) o.verify.cache_dir = verify::default_cache_dir();
  o.migrate_jobs = std::max(1u, a.jobs);
  o.max_body = std::max<std::size_t>(1, a.max_body_mib) << 20;
  o.max_jobs = std::max<std::size_t>(1, a.max_jobs);
  if (!serve::is_loopback(a.host))
    std::cerr << "ferry serve: warning: listening on " << a.host
              << ", not on loopback: anyone who reaches this address and learns the token can read and edit " << a.out
              << " and run compilers; the token travels unencrypted (no TLS)\n";

  // SIGINT/SIGTERM go to one watcher thread (blocked everywhere else: the server's threads
  // inherit this mask); a client that hangs up must not kill the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);

  serve::Server server(o);
  std::thread watcher([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    server.stop();
  });
  std::cout << server.url() << std::endl;
  std::cerr << "ferry serve: " << fs::absolute(a.out).lexically_normal().string() << " (" << target << "), verify for "
            << arch << (o.verify.hipcc.empty() ? "; hipcc not found" : "") << "; Ctrl-C stops\n";
  server.run();
  pthread_kill(watcher.native_handle(), SIGTERM);  // wakes the watcher when run() ended on its own
  watcher.join();
  return kExitOk;
}

}  // namespace

std::function<int()> setup_serve(CLI::App& sub) {
  auto a = std::make_shared<ServeArgs>();
  sub.add_option("output", a->out, "a folder written by ferry migrate")->required()->check(CLI::ExistingDirectory);
  sub.add_option("--port", a->port, "port to listen on (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  sub.add_option("--host", a->host,
                 "address to listen on; anything but loopback is reachable by others (a warning says so)")
      ->capture_default_str();
  sub.add_option("--arch", a->arch,
                 "profiles re-verify compiles for, comma-separated (default: gfx906, sm_90 for a CUDA tree)");
  sub.add_option("-j,--jobs", a->jobs, "parallel compiles and migration workers")->capture_default_str();
  sub.add_option("--timeout", a->timeout_s, "seconds allowed to one compile")->capture_default_str();
  sub.add_option("--hipcc", a->hipcc, "hipcc to use")->capture_default_str();
  sub.add_option("--nvcc", a->nvcc, "nvcc to use")->capture_default_str();
  sub.add_flag("--no-original-check", a->no_original_check, "do not compile originals to find pre-existing errors");
  sub.add_flag("--no-cache", a->no_cache, "do not reuse or store original-check results");
  sub.add_option("--max-body", a->max_body_mib, "largest request body and file opened or saved, in MiB")
      ->capture_default_str();
  sub.add_option("--max-jobs", a->max_jobs, "most background jobs queued or running at once")->capture_default_str();
  return [a] { return run_serve(*a); };
}

}  // namespace ferry::cli
