// `ferry wave64 build|run FILES...`: compile a HIP (or CUDA) program with the host compiler
// against the wave64 CPU runtime and run its kernels with 64-lane wavefronts (wave64/build.h,
// docs/wave64.md). Exit: build 0 ok, 1 compile error; run: the program's own exit code.
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "verify/process.h"
#include "wave64/build.h"

namespace fs = std::filesystem;

namespace ferry::cli {
namespace {

struct Wave64Args {
  wave64::BuildOptions build;
  std::vector<std::string> sources;
  std::vector<std::string> include_dirs;
  std::string api = "auto";
  std::string output;
  std::string work;
  std::string args;
  bool json = false;
  bool verbose = false;
  bool no_regions = false;
};

// Splits `--args` like a shell would for plain words and '...'/"..." quoting.
std::vector<std::string> split_args(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool have = false;
  char quote = 0;
  for (const char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
      else cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      have = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (have) out.push_back(cur);
      cur.clear();
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (quote) throw std::invalid_argument("--args: unterminated quote");
  if (have) out.push_back(cur);
  return out;
}

wave64::Api parse_api(const std::string& s) {
  if (s == "auto") return wave64::Api::Auto;
  if (s == "hip") return wave64::Api::Hip;
  if (s == "cuda") return wave64::Api::Cuda;
  throw std::invalid_argument("--api must be auto, hip or cuda");
}

void add_build_options(CLI::App& c, Wave64Args& a) {
  c.add_option("files", a.sources, "sources of the program (.cu .hip .cpp .cc .c)")->required();
  c.add_option("-I,--include", a.include_dirs, "include folder of the project (repeatable)");
  c.add_option("-D,--define", a.build.defines, "macro NAME or NAME=VALUE (repeatable)");
  c.add_option("--api", a.api, "hip, cuda, or auto (from the includes; .cu files without a HIP include are CUDA)")
      ->capture_default_str();
  c.add_option("--wave", a.build.wave, "lanes per wavefront: 64 (HIP default), 32 (CUDA, and HIP for comparison)");
  c.add_option("--device", a.build.device,
               "device model: gfx906 (60 CUs, 64 KiB LDS) or sm90 (132 SMs, 227 KiB shared); default: the API's own")
      ->check(CLI::IsMember({"gfx906", "sm90"}));
  c.add_option("--cxx", a.build.cxx, "host C++ compiler")->capture_default_str();
  c.add_option("--std", a.build.std, "C++ standard")->capture_default_str();
  c.add_option("-O,--opt", a.build.opt, "optimisation level for the compiler (-O2, --opt 3)")->capture_default_str();
  c.add_option("--cxx-flag", a.build.cxx_flags, "extra compiler flag (repeatable)");
  c.add_option("-l,--link", a.build.link_flags, "extra linker flag, e.g. -lm (repeatable)");
  c.add_option("--work", a.work, "folder for the transformed sources and objects (default: OUTPUT.w64)");
  c.add_option("-j,--jobs", a.build.jobs, "compilers run at once (default: one per core)");
  c.add_flag("--warnings", a.build.warnings, "show the compiler's warnings for the program's code");
  c.add_flag("--no-regions", a.no_regions,
             "keep every kernel on the fiber path (no region form: docs/wave64.md, \"Speed\")");
  c.add_flag("--json", a.json, "print the build result as JSON");
  c.add_flag("-v,--verbose", a.verbose, "print the compiler commands");
}

wave64::BuildResult do_build(Wave64Args& a) {
  wave64::BuildOptions& o = a.build;
  for (const std::string& s : a.sources) o.sources.emplace_back(s);
  for (const std::string& d : a.include_dirs) o.include_dirs.emplace_back(d);
  o.api = parse_api(a.api);
  o.regions = !a.no_regions;
  o.output = a.output;
  if (!a.work.empty()) o.work_dir = a.work;
  const verify::SubprocessRunner runner;
  wave64::BuildResult r = wave64::build(o, runner);
  for (const Diagnostic& d : r.diagnostics) std::cerr << d.format() << "\n";
  // the region pass's notes (which kernels run as loops over lanes, which keep fibers) with -v
  if (a.verbose)
    for (const std::string& n : r.region_notes) std::cerr << n << "\n";
  if (a.verbose)
    for (const auto& cmd : r.commands) std::cerr << fmt::format("{}\n", fmt::join(cmd, " "));
  if (!r.compiler_output.empty()) std::cerr << r.compiler_output;
  if (a.json) {
    nlohmann::json j = {{"ok", r.ok},
                        {"api", wave64::api_name(r.api)},
                        {"wave", r.wave},
                        {"device", r.device},
                        {"output", o.output.string()},
                        {"files", r.files},
                        {"launches_rewritten", r.launches},
                        {"dynamic_shared_rewritten", r.dynamic_shared},
                        {"regions_split", r.regions_split},
                        {"region_notes", r.region_notes},
                        {"seconds", r.seconds},
                        {"compiler_output", r.compiler_output}};
    nlohmann::json diags = nlohmann::json::array();
    for (const Diagnostic& d : r.diagnostics)
      diags.push_back(
          {{"code", to_string(d.code)}, {"file", d.file}, {"line", d.line}, {"col", d.col}, {"message", d.message}});
    j["diagnostics"] = diags;
    std::cout << j.dump(2) << "\n";
  }
  return r;
}

// A cache folder for `run` without -o: outside the sources, keyed by what is built.
fs::path run_cache_dir(const Wave64Args& a) {
  std::string key = a.api + "|" + std::to_string(a.build.wave) + "|" + a.build.device + "|" + a.build.cxx + "|" +
                    a.build.std + "|" + a.build.opt + (a.no_regions ? "|noregions" : "");
  for (const std::string& s : a.sources) key += "|" + fs::weakly_canonical(fs::absolute(s)).string();
  for (const std::string& d : a.include_dirs) key += "|I" + d;
  for (const std::string& d : a.build.defines) key += "|D" + d;
  const std::size_t h = std::hash<std::string>{}(key);
  const fs::path base = fs::temp_directory_path() / ("ferry-wave64-" + std::to_string(getuid()));
  return base / fmt::format("{:016x}", h);
}

}  // namespace

std::function<int()> setup_wave64(CLI::App& sub) {
  auto a = std::make_shared<Wave64Args>();
  sub.require_subcommand(1);
  sub.footer(
      "Kernels run on the CPU: one fiber per thread, W64_WAVE_SIZE lanes per wavefront. Environment of the "
      "built program: W64_THREADS (OS threads running blocks), W64_STACK_KB (stack per fiber, default 64), "
      "W64_QUIET=1 (no warnings about undefined warp behaviour). See docs/wave64.md.");
  CLI::App* build = sub.add_subcommand("build", "compile a program against the wave64 CPU runtime");
  add_build_options(*build, *a);
  build->add_option("-o,--output", a->output, "the executable to write")->required();
  CLI::App* run = sub.add_subcommand("run", "build (cached) and run a program on the wave64 CPU runtime");
  add_build_options(*run, *a);
  run->add_option("-o,--output", a->output, "keep the executable here (default: a cache folder in $TMPDIR)");
  run->add_option("--args", a->args, "arguments for the program, as one shell-quoted string");
  return [a, build, run] {
    if (build->parsed()) {
      const wave64::BuildResult r = do_build(*a);
      return r.ok ? kExitOk : kExitFindings;
    }
    (void)run;
    if (a->output.empty()) {
      const fs::path dir = run_cache_dir(*a);
      a->output = (dir / "program").string();
      if (a->work.empty()) a->work = (dir / "work").string();
    }
    const std::vector<std::string> args = split_args(a->args);
    const wave64::BuildResult r = do_build(*a);
    if (!r.ok) return kExitFindings;
    std::cout.flush();
    return wave64::run_program(a->output, args);
  };
}

}  // namespace ferry::cli
