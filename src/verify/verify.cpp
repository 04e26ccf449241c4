#include "verify/verify.h"

#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/split.h"
#include "migrate/migrate_tree.h"
#include "project/project.h"
#include "targets/target.h"
#include "verify/openmp.h"
#include "verify/plan.h"

namespace fs = std::filesystem;

namespace ferry::verify {
namespace {

// A scratch folder for object files, removed when verification ends.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "ferry-verify-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
      throw std::runtime_error("cannot create a temporary folder in " + fs::temp_directory_path().string());
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void parallel_for(std::size_t n, unsigned jobs, const std::function<void(std::size_t)>& fn) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  const unsigned workers = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(n)));
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < workers; ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

std::string compiler_for(const VerifyOptions& o, const analysis::Profile& p) {
  return p.toolchain == "nvcc" ? o.nvcc : o.hipcc;
}

std::string trim_output(const std::string& s) {
  constexpr std::size_t kMax = 8192;
  return s.size() <= kMax ? s : s.substr(0, kMax) + "\n[... " + std::to_string(s.size() - kMax) + " more bytes]\n";
}

// A digest of every header of the original tree: a cached original check stays valid only while
// neither the unit nor any header it may include changed.
std::string headers_digest(const fs::path& input) {
  std::string acc;
  project::Walk walk = project::walk_tree(input, {});
  for (const project::ProjectFile& f : walk.files)
    if (f.kind == project::FileKind::Header || f.kind == project::FileKind::CudaHeader)
      acc += f.rel + ":" + migrate::content_hash(project::read_file(f.abs(walk.root))) + "\n";
  return migrate::content_hash(acc);
}

nlohmann::json check_to_json(const OriginalCheck& c) {
  std::string state = c.state == OriginalCheck::State::Compiles       ? "compiles"
                      : c.state == OriginalCheck::State::Fails        ? "fails"
                      : c.state == OriginalCheck::State::Inconclusive ? "inconclusive"
                                                                      : "not-run";
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& [rel, line] : c.error_lines) lines.push_back({rel, line});
  return {{"state", state}, {"error_lines", lines}, {"first_error", c.first_error},
          {"note", c.note}, {"cached", c.cached},   {"undefined_names", c.undefined_names}};
}

OriginalCheck check_from_json(const nlohmann::json& j) {
  OriginalCheck c;
  const std::string s = j.at("state").get<std::string>();
  c.state = s == "compiles"       ? OriginalCheck::State::Compiles
            : s == "fails"        ? OriginalCheck::State::Fails
            : s == "inconclusive" ? OriginalCheck::State::Inconclusive
                                  : OriginalCheck::State::NotRun;
  for (const auto& l : j.at("error_lines"))
    c.error_lines.insert({l.at(0).get<std::string>(), l.at(1).get<std::uint32_t>()});
  c.first_error = j.value("first_error", "");
  c.note = j.value("note", "");
  if (j.contains("undefined_names"))
    for (const auto& n : j.at("undefined_names")) c.undefined_names.insert(n.get<std::string>());
  return c;
}

// What the release the tree was migrated for lacks: the target made again from the manifest's
// options (its version model: Target::known_gaps). A manifest whose options this Ferry does not
// take gives no gaps and a note.
TargetGaps target_gaps(const nlohmann::json& manifest, std::vector<std::string>& notes) {
  TargetGaps g;
  const targets::TargetInfo* info = targets::find_target(manifest.value("target", ""));
  if (!info) return g;
  targets::Options opts;
  if (manifest.contains("options") && manifest["options"].contains("target_options"))
    for (const auto& [k, v] : manifest["options"]["target_options"].items())
      if (v.is_string() && !v.get<std::string>().empty()) opts.values[k] = v.get<std::string>();
  try {
    const std::unique_ptr<targets::Target> t = info->make(opts);
    g.release = t->release();
    for (targets::KnownGap& k : t->known_gaps()) {
      if (k.scope.empty()) g.names.emplace(std::move(k.name), std::move(k.why));
      else g.members.emplace(std::make_pair(std::move(k.scope), std::move(k.name)), std::move(k.why));
    }
  } catch (const std::exception& e) {
    notes.push_back(std::string("the target's release could not be told from the manifest (") + e.what() +
                    "): no error is classified target-gap");
  }
  return g;
}

}  // namespace

const analysis::Profile* default_original_profile(std::string_view target) {
  const targets::TargetInfo* t = targets::find_target(target);
  return analysis::find_profile(t && !t->source_profile.empty() ? t->source_profile : "sm_90");
}

bool needs_relocatable_device_code(std::string_view output) {
  const bool lld = output.find("undefined hidden symbol:") != std::string_view::npos &&
                   output.find("amdgcn-link command failed") != std::string_view::npos;
  // ptxas's unresolved device function; nvcc's own refusal of a launch from device code
  // (dynamic parallelism) without separate compilation.
  const bool ptxas = output.find("Unresolved extern function") != std::string_view::npos ||
                     output.find("requires separate compilation mode") != std::string_view::npos;
  return lld || ptxas;  // both come after the source compiled: nothing else failed
}

VerifyResult run_verify(const VerifyOptions& o, const ProcessRunner& runner) {
  const auto t0 = std::chrono::steady_clock::now();
  std::error_code ec;
  if (!fs::is_directory(o.tree, ec)) throw std::invalid_argument(o.tree.string() + ": not a folder");
  if (o.profiles.empty()) throw std::invalid_argument("no target profile given (--arch)");

  VerifyResult r;
  r.tree = fs::absolute(o.tree).lexically_normal();
  r.mode = o.mode;
  r.jobs = std::max(1u, o.jobs);

  // The manifest says where the original lives (for the pre-existing check) and what the target was.
  LineMaps maps;
  TargetGaps gaps;
  if (o.mode == Mode::Migrated) {
    const fs::path manifest = r.tree / ".ferry" / "manifest.json";
    if (fs::exists(manifest, ec)) {
      nlohmann::json m;
      try {
        m = nlohmann::json::parse(project::read_file(manifest));
      } catch (const std::exception& e) {
        throw std::runtime_error(manifest.string() + ": unreadable manifest (" + e.what() + ")");
      }
      r.target = m.value("target", "");
      if (m.contains("input")) r.input = fs::path(m["input"].get<std::string>());
      gaps = target_gaps(m, r.notes);
      r.release = gaps.release;
      maps = load_line_maps(r.tree);
      if (maps.files.empty())
        r.notes.push_back("no .ferry/linemaps.json (migrated by an older Ferry?): every line counts as unchanged");
    } else {
      r.notes.push_back(
          "no .ferry/manifest.json: not a Ferry output, errors cannot be mapped or checked against an original");
    }
  } else {
    r.target = "cuda";
  }
  if (r.input && !fs::is_directory(*r.input, ec)) {
    r.notes.push_back("the original input " + r.input->string() + " is gone: pre-existing errors cannot be told apart");
    r.input.reset();
  }

  PlanOptions po;
  po.root = r.tree;
  po.input = r.input;
  po.compile_commands = o.compile_commands;
  po.exclude = o.exclude;
  Plan plan = make_plan(po);
  if (!o.only.empty()) {
    const std::set<std::string> wanted(o.only.begin(), o.only.end());
    std::set<std::string> found;
    std::erase_if(plan.units, [&](const TranslationUnit& tu) {
      if (!wanted.count(tu.rel)) return true;
      found.insert(tu.rel);
      return false;
    });
    for (const std::string& w : wanted)
      if (!found.count(w)) throw std::invalid_argument(w + ": not a translation unit of " + r.tree.string());
  }
  r.translation_units = plan.units.size();
  r.compile_commands = plan.compile_commands;

  // PyTorch extensions: one file of the tree including torch/ATen/c10 headers puts PyTorch's
  // include directories on every unit whose flags are inferred, as an extension build gives them
  // to each of its sources (a compilation database already carries its own).
  for (const std::string& rel : plan.files) {
    static const std::set<std::string> kSourceExt = {".cu",  ".cuh", ".hip", ".h",   ".hpp", ".hh",
                                                     ".cpp", ".cc",  ".cxx", ".inl", ".c"};
    if (!kSourceExt.count(fs::path(rel).extension().string())) continue;
    std::string text;
    try {
      text = project::read_file(r.tree / rel);
    } catch (const std::exception&) {
      continue;
    }
    if (r.torch_user.empty())
      if (std::string h = torch_include(text); !h.empty()) {
        r.torch_user = rel;
        r.torch_header = std::move(h);
      }
    if (r.mpi_user.empty() && includes_mpi(text)) r.mpi_user = rel;
    if (!r.torch_user.empty() && !r.mpi_user.empty()) break;
  }
  // MPI programs: the wrapper's include directory, as compiling through mpicxx gives it.
  if (!r.mpi_user.empty()) {
    r.mpi = find_mpi(runner);
    if (r.mpi->usable())
      r.notes.push_back("MPI (" + r.mpi->wrapper +
                        " --showme:compile) is on the include path of every unit, for <mpi.h> in " + r.mpi_user);
    else r.notes.push_back(r.mpi_user + " includes <mpi.h>, but " + r.mpi->problem + ": units are compiled without it");
  }
  if (!r.torch_user.empty()) {
    r.torch = find_torch(o.pythons.empty() ? default_pythons() : o.pythons, runner);
    if (r.torch->usable())
      r.notes.push_back("PyTorch " + r.torch->version + " (" + r.torch->python +
                        ": torch.utils.cpp_extension.include_paths()) is on the include path of every unit, for <" +
                        r.torch_header + "> in " + r.torch_user);
    else
      r.notes.push_back(r.torch_user + " includes PyTorch's <" + r.torch_header + ">, but " + r.torch->problem +
                        ": units are compiled without PyTorch's headers");
  }
  // The ROCm libraries' headers (scripts/rocm-headers.sh): after the unit's own include paths, as
  // an installed /opt/rocm/include comes after them; for hipcc only (nvcc builds use the CUDA ones).
  for (const fs::path& d : o.rocm_include) {
    if (!fs::is_directory(d, ec)) throw std::invalid_argument("--rocm-include " + d.string() + ": no such directory");
    r.rocm_include.push_back(fs::absolute(d).lexically_normal().string());
    std::string release;
    try {  // DEST/<release>/VERSIONS beside DEST/<release>/include: its first line names the release
      const std::string v = project::read_file(fs::absolute(d).lexically_normal().parent_path() / "VERSIONS");
      if (v.starts_with("ROCm ")) release = v.substr(0, v.find(' ', 5));
    } catch (const std::exception&) {
    }
    r.rocm_include_release.push_back(release);
  }
  if (!r.rocm_include.empty()) {
    std::string roots;
    for (std::size_t i = 0; i < r.rocm_include.size(); ++i)
      roots += (i ? ", " : "") + r.rocm_include[i] +
               (r.rocm_include_release[i].empty() ? "" : " (" + r.rocm_include_release[i] + ")");
    r.notes.push_back("ROCm library headers from " + roots +
                      " are on the include path of every hipcc compile; the libraries themselves are not: units "
                      "are compiled (-c, header-only hipCUB/rocThrust for real) but never linked against hipBLAS, "
                      "hipFFT, RCCL ...");
  }
  // OpenMP host code: a unit whose own source includes <omp.h> or has `#pragma omp` gets the host
  // compiler's OpenMP flag, as its build gives it (a compilation database carries its own).
  std::set<std::string> openmp_units;
  for (const TranslationUnit& tu : plan.units) {
    if (tu.flag_source != "inferred") continue;
    try {
      if (uses_openmp(project::read_file(r.tree / tu.rel))) openmp_units.insert(tu.rel);
    } catch (const std::exception&) {
    }
  }
  if (!openmp_units.empty())
    r.notes.push_back(
        fmt::format("{} unit(s) use OpenMP (<omp.h> or #pragma omp; the first: {}): compiled with "
                    "-fopenmp (nvcc: -Xcompiler -fopenmp), as their build gives it",
                    openmp_units.size(), *openmp_units.begin()));
  // --define: the target build's own defines (ggml's -DGGML_USE_HIP), for the tree's compiles only;
  // the original is compiled as the source build compiles it.
  r.defines = o.defines;
  if (!r.defines.empty()) {
    std::string list;
    for (const std::string& d : r.defines) list += (list.empty() ? "-D" : " -D") + d;
    r.notes.push_back("every compile of the tree gets " + list + " (--define; the originals do not)");
  }
  const bool with_torch = r.torch && r.torch->usable();
  auto unit_flags = [&](const TranslationUnit& tu, const std::vector<std::string>& base, bool hip) {
    std::vector<std::string> f = base;
    if (hip)
      for (const std::string& d : r.rocm_include) f.insert(f.end(), {"-isystem", d});
    if (with_torch && tu.flag_source == "inferred") {
      const std::vector<std::string> t = torch_flags(*r.torch, tu.rel, hip);
      f.insert(f.end(), t.begin(), t.end());
    }
    if (r.mpi && r.mpi->usable() && tu.flag_source == "inferred")
      for (const std::string& m : r.mpi->flags)
        if (hip || m != "-pthread") f.push_back(m);               // nvcc takes host-only flags through -Xcompiler
    if (openmp_units.count(tu.rel)) f.emplace_back(kOpenmpFlag);  // compile_command spells it for nvcc
    return f;
  };

  TempDir tmp;
  struct Job {
    const TranslationUnit* tu;
    const analysis::Profile* profile;
  };
  std::vector<Job> jobs;
  for (const TranslationUnit& tu : plan.units)
    for (const analysis::Profile* p : o.profiles) jobs.push_back({&tu, p});
  r.units.resize(jobs.size());
  std::vector<std::vector<CompilerError>> raw_errors(jobs.size());
  std::vector<std::uintmax_t> unit_bytes(jobs.size(), 0);  // for progress only
  if (o.on_start || o.on_file_done) {
    std::uintmax_t total = 0;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const std::uintmax_t n = fs::file_size(r.tree / jobs[i].tu->rel, ec);
      total += unit_bytes[i] = ec ? 0 : n;
    }
    if (o.on_start) o.on_start(jobs.size(), total);
  }

  std::atomic<std::size_t> nvcc_flag_units{0};
  parallel_for(jobs.size(), r.jobs, [&](std::size_t i) {
    const Job& job = jobs[i];
    UnitResult& u = r.units[i];
    u.rel = job.tu->rel;
    u.arch = job.profile->name;
    u.toolchain = job.profile->toolchain;
    u.flag_source = job.tu->flag_source;
    const std::string obj = (tmp.path() / fmt::format("{}-{}.o", i, job.profile->name)).string();
    std::vector<std::string> flags = unit_flags(*job.tu, job.tu->flags, job.profile->toolchain != "nvcc");
    for (const std::string& d : r.defines) flags.push_back("-D" + d);
    u.command = compile_command(compiler_for(o, *job.profile), *job.profile, job.tu->rel, job.tu->is_c, flags, obj);
    ProcessResult pr = runner.run(u.command, r.tree, o.timeout);
    if (pr.exit_code != 0 && !pr.timed_out && !job.tu->is_c && needs_relocatable_device_code(pr.output)) {
      std::vector<std::string> rdc = u.command;
      rdc.insert(rdc.begin() + 1, job.profile->toolchain == "nvcc" ? "-rdc=true" : "-fgpu-rdc");
      const double first = pr.seconds;
      pr = runner.run(rdc, r.tree, o.timeout);
      pr.seconds += first;
      u.command = std::move(rdc);
      u.relocatable = true;
    }
    // nvcc names the flag the code needs (`__device__` lambdas, constexpr host functions called in
    // device code): hipcc needs neither, and the HIP -> CUDA build-file migration adds them where the
    // sources need them (FRY5241). The unit is compiled again with the flag nvcc asks for.
    bool flags_added = false;
    for (int round = 0; round < 2 && pr.exit_code != 0 && !pr.timed_out && job.profile->toolchain == "nvcc"; ++round) {
      std::vector<std::string> again = u.command;
      for (std::string_view flag : {"--extended-lambda", "--expt-relaxed-constexpr"})
        if (pr.output.find(flag) != std::string::npos && std::find(again.begin(), again.end(), flag) == again.end())
          again.insert(again.begin() + 1, std::string(flag));
      if (again.size() == u.command.size()) break;
      const double before = pr.seconds;
      pr = runner.run(again, r.tree, o.timeout);
      pr.seconds += before;
      u.command = std::move(again);
      flags_added = true;
    }
    if (flags_added) ++nvcc_flag_units;
    u.seconds = pr.seconds;
    u.timed_out = pr.timed_out;
    u.passed = pr.exit_code == 0 && !pr.timed_out && !pr.launch_failed;
    u.output = trim_output(pr.output);
    if (!u.passed) raw_errors[i] = parse_compiler_output(pr.output);
    std::error_code job_ec;  // one per job: the jobs run in parallel
    fs::remove(obj, job_ec);
    if (o.on_file_done) o.on_file_done(unit_bytes[i]);
  });
  for (const UnitResult& u : r.units) r.compile_seconds += u.seconds;
  if (const auto n = std::count_if(r.units.begin(), r.units.end(), [](const UnitResult& u) { return u.relocatable; }))
    r.notes.push_back(
        fmt::format("{} unit(s) call a device function defined in another unit: compiled again as "
                    "relocatable device code (-fgpu-rdc; nvcc -rdc=true), as a separate-compilation "
                    "build compiles them",
                    n));

  if (const std::size_t n = nvcc_flag_units.load())
    r.notes.push_back(
        fmt::format("{} unit(s) compiled again with the nvcc flag nvcc asked for (--extended-lambda, "
                    "--expt-relaxed-constexpr), as the migrated build files pass it (FRY5241)",
                    n));

  // Compile the original of each unit that failed for more than missing headers: once per unit,
  // whatever the number of profiles, and cached on disk across runs.
  std::vector<const TranslationUnit*> to_check;
  if (o.mode == Mode::Migrated && o.check_original && r.input) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      if (r.units[i].passed || r.units[i].timed_out) continue;
      bool all_known_missing = !raw_errors[i].empty();
      for (const CompilerError& e : raw_errors[i]) {
        const auto h = missing_header(e);
        all_known_missing = all_known_missing && h && !known_missing_library(*h).empty();
      }
      if (all_known_missing) continue;
      if (seen.insert(jobs[i].tu->rel).second) to_check.push_back(jobs[i].tu);
    }
  }
  if (!to_check.empty()) {
    const analysis::Profile* op = o.original_profile;
    if (!op) op = default_original_profile(r.target);
    if (!op) throw std::runtime_error("no profile to compile the original with");
    const std::string digest = headers_digest(*r.input);
    std::mutex mu;
    parallel_for(to_check.size(), r.jobs, [&](std::size_t k) {
      const TranslationUnit& tu = *to_check[k];
      std::vector<std::string> cmd = compile_command(compiler_for(o, *op), *op, tu.rel, tu.is_c,
                                                     unit_flags(tu, tu.orig_flags, op->toolchain != "nvcc"), "");
      cmd.resize(cmd.size() - 2);  // the object path is added below, outside the cache key
      const fs::path src = *r.input / tu.rel;
      std::string key_text = digest + "\n";
      for (const std::string& a : cmd) key_text += a + '\0';
      std::string content;
      try {
        content = project::read_file(src);
      } catch (const std::exception&) {
        OriginalCheck c;
        c.note = "original " + src.string() + " not found";
        std::lock_guard lock(mu);
        r.originals[tu.rel] = c;
        return;
      }
      key_text += r.input->string() + '\0' + content;
      const std::string key = migrate::content_hash(key_text);
      const fs::path cache_file = o.cache_dir ? *o.cache_dir / (key + ".json") : fs::path();
      std::error_code job_ec;  // one per job: the jobs run in parallel
      if (o.cache_dir && fs::exists(cache_file, job_ec)) {
        try {
          OriginalCheck c = check_from_json(nlohmann::json::parse(project::read_file(cache_file)));
          c.cached = true;
          std::lock_guard lock(mu);
          r.originals[tu.rel] = std::move(c);
          return;
        } catch (const std::exception&) {
          // a damaged cache entry is recomputed
        }
      }
      const std::string obj = (tmp.path() / fmt::format("orig-{}.o", k)).string();
      cmd.insert(cmd.end(), {"-o", obj});
      ProcessResult pr = runner.run(cmd, *r.input, o.timeout);
      if (pr.exit_code != 0 && !pr.timed_out && !tu.is_c && needs_relocatable_device_code(pr.output)) {
        cmd.insert(cmd.begin() + 1, op->toolchain == "nvcc" ? "-rdc=true" : "-fgpu-rdc");
        pr = runner.run(cmd, *r.input, o.timeout);
      }
      fs::remove(obj, job_ec);
      OriginalCheck c;
      if (pr.launch_failed || pr.timed_out) {
        c.note = pr.timed_out ? "compiling the original timed out" : pr.output;
      } else if (pr.exit_code == 0) {
        c.state = OriginalCheck::State::Compiles;
      } else {
        const std::vector<CompilerError> errs = parse_compiler_output(pr.output);
        if (errs.empty() || only_missing_headers(errs)) {
          c.state = OriginalCheck::State::Inconclusive;
          c.note = errs.empty() ? "the original failed without a parsable error"
                                : "the original misses a header too: " + errs.front().message;
        } else {
          c.state = OriginalCheck::State::Fails;
          for (const CompilerError& e : errs) {
            if (auto rel = tree_relative(*r.input, e.at.file, *r.input)) {
              c.error_lines.insert({*rel, e.at.line});
              if (c.first_error.empty()) c.first_error = fmt::format("{}:{}: {}", *rel, e.at.line, e.message);
              if (const auto name = nvcc_undefined_name(e.message)) c.undefined_names.insert(*name);
            }
          }
          if (c.first_error.empty()) c.first_error = errs.front().message;
        }
      }
      if (o.cache_dir && c.state != OriginalCheck::State::NotRun) {
        try {
          project::write_atomically(cache_file, check_to_json(c).dump());
        } catch (const std::exception&) {
          // an unwritable cache only costs time
        }
      }
      std::lock_guard lock(mu);
      r.originals[tu.rel] = std::move(c);
    });
  }

  // Map and classify.
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    UnitResult& u = r.units[i];
    if (u.passed) continue;
    ClassifyContext ctx;
    ctx.root = r.tree;
    ctx.cwd = r.tree;
    ctx.maps = &maps;
    ctx.tree_files = &plan.files;
    ctx.source_is_original = o.mode == Mode::Original;
    ctx.gaps = gaps.names.empty() && gaps.members.empty() ? nullptr : &gaps;
    const auto oc = r.originals.find(u.rel);
    ctx.original = oc == r.originals.end() ? nullptr : &oc->second;
    for (const CompilerError& e : raw_errors[i]) {
      MappedError m = map_error(e, ctx);
      classify(m, ctx);
      u.errors.push_back(std::move(m));
    }
    u.cls = unit_class(u.errors);
    if (u.errors.empty()) {
      MappedError m;
      m.cls = FailureClass::Unknown;
      m.raw.message = u.timed_out ? fmt::format("timed out after {} s", o.timeout.count())
                                  : "the compiler failed without an error message Ferry can read";
      m.reason = u.timed_out ? "the compile was killed; raise --timeout" : "see the compiler output";
      u.errors.push_back(std::move(m));
      u.cls = FailureClass::Unknown;
    }
  }
  std::sort(r.units.begin(), r.units.end(),
            [](const UnitResult& a, const UnitResult& b) { return std::tie(a.rel, a.arch) < std::tie(b.rel, b.arch); });
  if (plan.units.empty()) r.notes.push_back("no translation units (.cu .hip .cpp .cc .cxx .c) in the tree");
  // Units that stop at a ROCm library header Debian does not package: say how to get them.
  if (r.rocm_include.empty()) {
    static const std::set<std::string> kRocmLibraries = {"hipBLAS", "hipBLASLt", "hipFFT",    "hipCUB", "rocThrust",
                                                         "RCCL",    "MIOpen",    "hipSOLVER", "rocWMMA"};
    std::set<std::string> libs;
    std::size_t n = 0;
    for (const UnitResult& u : r.units) {
      bool counted = false;
      for (const MappedError& e : u.errors)
        if (e.cls == FailureClass::MissingDependency && kRocmLibraries.count(e.library)) {
          libs.insert(e.library);
          if (!counted) ++n, counted = true;
        }
    }
    if (n) {
      std::string names;
      for (const std::string& l : libs) names += (names.empty() ? "" : ", ") + l;
      r.notes.push_back(
          fmt::format("{} compile(s) miss the headers of {}: scripts/rocm-headers.sh assembles them, "
                      "--rocm-include DIR (or FERRY_ROCM_INCLUDE) compiles against them",
                      n, names));
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

namespace {

// The error a summary shows for a failed unit: the first one of the unit's class.
const MappedError* headline(const UnitResult& u) {
  for (const MappedError& e : u.errors)
    if (e.cls == u.cls) return &e;
  return u.errors.empty() ? nullptr : &u.errors.front();
}

std::string original_location(const MappedError& e) {
  if (!e.origin) return e.raw.at.file.empty() ? std::string() : fmt::format("{}:{}", e.raw.at.file, e.raw.at.line);
  const Origin& o = *e.origin;
  std::string s = fmt::format("{}:{}", o.rel, o.orig_line);
  if (!o.changed && o.col && !o.via_include) s += fmt::format(":{}", o.col);
  return s;
}

}  // namespace

nlohmann::json to_json(const VerifyResult& r) {
  nlohmann::json j;
  j["version"] = 1;
  j["tree"] = r.tree.string();
  j["input"] = r.input ? nlohmann::json(r.input->string()) : nlohmann::json(nullptr);
  j["target"] = r.target;
  j["release"] = r.release;
  j["mode"] = r.mode == Mode::Original ? "original" : "migrated";
  j["jobs"] = r.jobs;
  j["compile_commands"] = r.compile_commands ? nlohmann::json(r.compile_commands->string()) : nlohmann::json(nullptr);
  j["notes"] = r.notes;
  std::map<std::string, std::size_t> by_class;
  std::size_t passed = 0;
  nlohmann::json units = nlohmann::json::array();
  for (const UnitResult& u : r.units) {
    if (u.passed) ++passed;
    else ++by_class[std::string(class_name(u.cls))];
    nlohmann::json ju = {{"file", u.rel},
                         {"arch", u.arch},
                         {"toolchain", u.toolchain},
                         {"status", u.passed ? "pass" : "fail"},
                         {"seconds", u.seconds},
                         {"flags_from", u.flag_source},
                         {"command", u.command}};
    if (u.relocatable) ju["relocatable"] = true;
    if (!u.passed) {
      ju["class"] = class_name(u.cls);
      ju["timed_out"] = u.timed_out;
      nlohmann::json errs = nlohmann::json::array();
      for (const MappedError& e : u.errors) {
        nlohmann::json je = {{"file", e.raw.at.file}, {"line", e.raw.at.line},    {"col", e.raw.at.col},
                             {"fatal", e.raw.fatal},  {"message", e.raw.message}, {"class", class_name(e.cls)},
                             {"reason", e.reason}};
        if (!e.library.empty()) je["library"] = e.library;
        if (e.origin) {
          const Origin& o = *e.origin;
          je["original"] = {{"file", o.rel},
                            {"line", o.orig_line},
                            {"output_line", o.out_line},
                            {"changed_by_ferry", o.changed},
                            {"via_include", o.via_include},
                            {"flagged", o.flagged}};
        } else {
          je["original"] = nullptr;
        }
        nlohmann::json chain = nlohmann::json::array();
        for (const SourceLocation& l : e.raw.include_chain) chain.push_back({{"file", l.file}, {"line", l.line}});
        je["include_chain"] = chain;
        errs.push_back(std::move(je));
      }
      ju["errors"] = errs;
      ju["output"] = u.output;
    }
    units.push_back(std::move(ju));
  }
  if (r.torch)
    j["torch"] = {{"included_by", r.torch_user},
                  {"header", r.torch_header},
                  {"python", r.torch->python},
                  {"version", r.torch->version},
                  {"include_dirs", r.torch->include_dirs},
                  {"usable", r.torch->usable()},
                  {"problem", r.torch->problem}};
  if (r.mpi)
    j["mpi"] = {{"included_by", r.mpi_user},
                {"wrapper", r.mpi->wrapper},
                {"flags", r.mpi->flags},
                {"usable", r.mpi->usable()},
                {"problem", r.mpi->problem}};
  if (!r.rocm_include.empty()) {
    nlohmann::json roots = nlohmann::json::array();
    for (std::size_t i = 0; i < r.rocm_include.size(); ++i)
      roots.push_back({{"dir", r.rocm_include[i]}, {"release", r.rocm_include_release[i]}});
    // Compiled with -c against the headers; nothing is linked against the libraries.
    j["rocm_include"] = {{"roots", roots}, {"check", "compile-only (no link)"}};
  }
  if (!r.defines.empty()) j["defines"] = r.defines;
  nlohmann::json originals = nlohmann::json::object();
  for (const auto& [rel, c] : r.originals) originals[rel] = check_to_json(c);
  j["summary"] = {{"translation_units", r.translation_units}, {"compiles", r.units.size()}, {"passed", passed},
                  {"failed", r.units.size() - passed},        {"by_class", by_class},       {"wall_seconds", r.seconds},
                  {"compile_seconds", r.compile_seconds},     {"exit_code", exit_code(r)}};
  j["units"] = units;
  j["original_checks"] = originals;
  return j;
}

std::string text_summary(const VerifyResult& r) {
  std::ostringstream s;
  std::set<std::string> arches;
  for (const UnitResult& u : r.units) arches.insert(u.arch);
  std::string arch_list;
  for (const std::string& a : arches) arch_list += (arch_list.empty() ? "" : ",") + a;
  s << "ferry verify: " << r.tree.string();
  if (r.mode == Mode::Original) s << " (original CUDA source)";
  else if (r.input) s << " (" << r.target << ", migrated from " << r.input->string() << ")";
  s << "\n  " << r.translation_units << " translation units x " << (arch_list.empty() ? "-" : arch_list) << " = "
    << r.units.size() << " compiles, jobs " << r.jobs;
  if (r.compile_commands) s << ", flags from " << r.compile_commands->string();
  s << "\n";
  for (const std::string& n : r.notes) s << "  note: " << n << "\n";
  std::size_t w = 0;
  for (const UnitResult& u : r.units) w = std::max(w, u.rel.size());
  std::map<std::string, std::size_t> by_class;
  std::size_t passed = 0;
  for (const UnitResult& u : r.units) {
    s << (u.passed ? "PASS  " : "FAIL  ") << fmt::format("{:<8} {:<{}}  {:6.1f} s", u.arch, u.rel, w, u.seconds);
    if (u.passed) {
      ++passed;
      s << "\n";
      continue;
    }
    ++by_class[std::string(class_name(u.cls))];
    s << "  " << class_name(u.cls);
    const MappedError* e = headline(u);
    if (e && !e->library.empty()) s << " (" << e->library << ")";
    s << "\n";
    if (e) {
      const std::string loc = original_location(*e);
      s << "      " << (loc.empty() ? "" : loc + ": ") << (e->raw.fatal ? "fatal error: " : "error: ") << e->raw.message
        << "\n";
      s << "      why: " << e->reason;
      if (e->origin && e->origin->via_include) s << fmt::format(" [in {}:{}]", e->raw.at.file, e->raw.at.line);
      if (e->origin && (e->origin->out_line != e->origin->orig_line))
        s << fmt::format(" [output line {}]", e->origin->out_line);
      s << "\n";
    }
  }
  s << "result: " << passed << " passed, " << (r.units.size() - passed) << " failed";
  if (!by_class.empty()) {
    s << " (";
    bool first = true;
    for (const auto& [c, n] : by_class) s << (first ? "" : ", ") << c << " " << n, first = false;
    s << ")";
  }
  s << fmt::format("; exit {}\n", exit_code(r));
  const double per = r.units.empty() ? 0 : r.compile_seconds / static_cast<double>(r.units.size());
  s << fmt::format("time: {:.2f} s wall, {:.2f} s compiling per unit and arch (sum {:.2f} s)\n", r.seconds, per,
                   r.compile_seconds);
  return s.str();
}

std::string locate_toolchain(const std::string& name, const char* fallback) {
  if (const fs::path p = find_program(name); !p.empty()) return p.string();
  if (name.find('/') == std::string::npos && !find_program(fallback).empty()) return fallback;
  return {};
}

std::vector<fs::path> rocm_include_from_env() {
  std::vector<fs::path> out;
  const char* e = std::getenv("FERRY_ROCM_INCLUDE");
  if (!e) return out;
  for (const std::string_view part : split(e, ':'))
    if (!part.empty()) out.emplace_back(std::string(part));
  return out;
}

fs::path default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "ferry" / "verify";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "ferry" / "verify";
  return fs::temp_directory_path() / "ferry-cache" / "verify";
}

int exit_code(const VerifyResult& r) {
  for (const UnitResult& u : r.units) {
    if (u.passed) continue;
    if (u.cls == FailureClass::MigrationDefect) return 1;
    if (r.mode == Mode::Original && u.cls != FailureClass::MissingDependency) return 1;
  }
  return 0;
}

}  // namespace ferry::verify
