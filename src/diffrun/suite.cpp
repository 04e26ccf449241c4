#include "diffrun/suite.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "diffrun/bisect.h"
#include "diffrun/build_flags.h"
#include "diffrun/constructs.h"
#include "diffrun/launch_bisect.h"
#include "project/project.h"

namespace fs = std::filesystem;

namespace ferry::diffrun {
namespace {

bool is_source(const fs::path& p) {
  static const std::set<std::string> kExt = {".cu", ".hip", ".cpp", ".cc", ".cxx", ".c"};
  // A licence or readme named like a source (NVIDIA's code-samples: LICENSE.gups.cu) is not one.
  const std::string n = p.filename().string();
  if (n.starts_with("LICENSE") || n.starts_with("README") || n.starts_with("COPYING")) return false;
  return kExt.contains(p.extension().string());
}
// .cu and .hip files, and C++ files that hold kernels (HIP corpora name them .cpp).
bool is_kernel_source(const fs::path& p) {
  if (p.extension() == ".cu" || p.extension() == ".hip") return true;
  try {
    const std::string text = project::read_file(p);
    return text.find("__global__") != std::string::npos || text.find("hip/hip_runtime.h") != std::string::npos;
  } catch (const std::exception&) {
    return false;
  }
}

bool defines_main(const fs::path& p) {
  static const std::regex kMain(R"((^|[^\w:.])(int|void|auto)\s+main\s*\()");
  std::string text;
  try {
    text = project::read_file(p);
  } catch (const std::exception&) {
    return false;
  }
  return std::regex_search(text, kMain);
}

bool skipped_dir(const fs::path& p) {
  const std::string n = p.filename().string();
  return n.empty() || n[0] == '.' || n == "build" || n == "CMakeFiles" || n.ends_with(".w64");
}

std::string rel(const fs::path& p, const fs::path& base) {
  const std::string r = p.lexically_relative(base).generic_string();
  return r.empty() ? "." : r;
}

std::vector<std::string> include_dirs_for(const fs::path& dir, const fs::path& root) {
  std::vector<std::string> out = {"."};
  std::vector<fs::path> ancestors;  // dir, its parent, ... up to the root
  fs::path a = dir;
  while (true) {
    ancestors.push_back(a);
    for (const char* n : {"Common", "common", "include", "inc", "utils", "util"}) {
      std::error_code ec;
      if (fs::is_directory(a / n, ec)) out.push_back(rel(a / n, dir));
    }
    if (a == root || !a.has_parent_path() || a.parent_path() == a || rel(a, root).starts_with("..")) break;
    a = a.parent_path();
  }
  // A quoted include that neither the folder nor those give, found in an ancestor up to the root:
  // that ancestor (HIP-Examples' mini-nbody builds its hip/ and cuda/ programs with -I../ for
  // the `timer.h` beside them).
  static const std::regex kQuoted(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)")re", std::regex::multiline);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file(ec) || !is_source(e.path())) continue;
    const std::string text = read_or_empty(e.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kQuoted); it != std::sregex_iterator(); ++it) {
      const std::string inc = (*it)[1].str();
      const auto found_in = [&](const std::string& d) { return fs::is_regular_file(dir / d / inc, ec); };
      if (std::any_of(out.begin(), out.end(), found_in)) continue;
      for (std::size_t k = 1; k < ancestors.size(); ++k)
        if (fs::is_regular_file(ancestors[k] / inc, ec)) {
          out.push_back(rel(ancestors[k], dir));
          break;
        }
    }
  }
  return out;
}

std::string cmake_test_args(const std::string& text) {
  static const std::regex kTest(R"(add_test\s*\(\s*(?:NAME\s+\S+\s+COMMAND\s+)?\S+\s+([^)\n]*)\))");
  std::smatch m;
  if (!std::regex_search(text, m, kTest)) return {};
  std::string a = m[1].str();
  while (!a.empty() && std::isspace(static_cast<unsigned char>(a.back()))) a.pop_back();
  return a.find("${") == std::string::npos ? a : std::string();
}

// C++20 when a CMakeLists.txt of the folder or above it (up to the root) asks for it
// (rocm-examples use std::span and ranges).
std::string cxx_std_for(const fs::path& dir, const fs::path& root) {
  static const std::regex k20(R"((CXX_STANDARD\s+2[0-9])|(cxx_std_2[0-9]))");
  for (fs::path a = dir;; a = a.parent_path()) {
    if (std::regex_search(read_or_empty(a / "CMakeLists.txt"), k20)) return "gnu++20";
    if (a == root || !a.has_parent_path() || a.parent_path() == a || rel(a, root).starts_with("..")) break;
  }
  return {};
}

std::string safe_name(const std::string& n) {
  std::string s;
  for (const char c : n) s += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  return s == "." ? "_root" : s;
}

}  // namespace

std::string makefile_run_args(const std::string& text) {
  static const std::regex kRunRule(R"(^run\s*:)");
  std::istringstream in(text);
  std::string line;
  bool in_run = false;
  while (std::getline(in, line)) {
    if (!in_run) {
      in_run = std::regex_search(line, kRunRule);
      continue;
    }
    if (line.empty() || line[0] != '\t') {
      if (!line.empty() && line.find_first_not_of(" \t") != std::string::npos) break;
      continue;
    }
    const std::size_t dot = line.find("./");
    if (dot == std::string::npos) continue;
    std::size_t end = line.find_first_of(" \t", dot);
    if (end == std::string::npos) return {};
    std::string args = line.substr(end);
    for (const char* stop : {";", "&&", "||", "|", ">"})
      if (const std::size_t p = args.find(stop); p != std::string::npos) args.erase(p);
    const std::size_t b = args.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    args = args.substr(b);
    while (!args.empty() && std::isspace(static_cast<unsigned char>(args.back()))) args.pop_back();
    if (args.find("$(") != std::string::npos || args.find("${") != std::string::npos) return {};
    return args;
  }
  return {};
}

std::vector<SuiteProgram> find_programs(const fs::path& root_in, const fs::path& list_file) {
  const fs::path root = fs::weakly_canonical(fs::absolute(root_in));
  if (!fs::is_directory(root)) throw std::invalid_argument("--suite: '" + root_in.string() + "' is not a folder");
  std::vector<fs::path> dirs;
  std::map<std::string, std::string> list_args;
  if (!list_file.empty()) {
    std::istringstream in(project::read_file(list_file));
    std::string line;
    while (std::getline(in, line)) {
      const std::size_t b = line.find_first_not_of(" \t");
      if (b == std::string::npos || line[b] == '#') continue;
      const std::size_t e = line.find_first_of(" \t", b);
      const std::string d = line.substr(b, e == std::string::npos ? std::string::npos : e - b);
      std::string a = e == std::string::npos ? "" : line.substr(e);
      a.erase(0, a.find_first_not_of(" \t"));
      while (!a.empty() && std::isspace(static_cast<unsigned char>(a.back()))) a.pop_back();
      if (!fs::is_directory(root / d))
        throw std::invalid_argument(list_file.string() + ": '" + d + "' is not a folder under " + root.string());
      dirs.push_back(fs::weakly_canonical(root / d));
      list_args[rel(dirs.back(), root)] = a;
    }
  } else {
    dirs.push_back(root);
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
         it != fs::recursive_directory_iterator(); ++it) {
      if (!it->is_directory()) continue;
      if (skipped_dir(it->path())) {
        it.disable_recursion_pending();
        continue;
      }
      dirs.push_back(it->path());
    }
  }
  std::vector<SuiteProgram> out;
  for (const fs::path& d : dirs) {
    std::vector<fs::path> sources;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec))
      if (e.is_regular_file() && is_source(e.path())) sources.push_back(e.path());
    std::sort(sources.begin(), sources.end());
    if (std::none_of(sources.begin(), sources.end(), is_kernel_source)) continue;
    std::vector<fs::path> mains, others;
    for (const fs::path& s : sources) (defines_main(s) ? mains : others).push_back(s);
    if (mains.empty()) continue;
    const std::string name = rel(d, root);
    std::string args, from;
    if (const auto it = list_args.find(name); it != list_args.end()) {
      args = it->second;
      from = args.empty() ? "" : "list file";
    } else if (std::string a = makefile_run_args(read_or_empty(d / "Makefile")); !a.empty()) {
      args = a;
      from = "Makefile run target";
    } else if (std::string c = cmake_test_args(read_or_empty(d / "CMakeLists.txt")); !c.empty()) {
      args = c;
      from = "CMake add_test";
    }
    for (const fs::path& m : mains) {
      SuiteProgram p;
      // Several mains in one folder: one program per main, with the folder's other sources.
      // Two mains of one stem (HIP-Examples' rtm8.cpp and rtm8.cu): named with their extension.
      const bool stem_shared =
          std::count_if(mains.begin(), mains.end(), [&](const fs::path& o) { return o.stem() == m.stem(); }) > 1;
      p.name = mains.size() == 1
                   ? name
                   : (name == "." ? "" : name + "/") + (stem_shared ? m.filename().string() : m.stem().string());
      p.dir = name;
      p.sources.push_back(m.filename().string());
      for (const fs::path& o : others) p.sources.push_back(o.filename().string());
      p.include_dirs = include_dirs_for(d, root);
      p.cxx_std = cxx_std_for(d, root);
      p.args = args;
      p.args_from = from;
      std::vector<std::string> main_names;
      for (const fs::path& o : mains) main_names.push_back(o.filename().string());
      FolderDefines defs = folder_defines(d, m.filename().string(), main_names);
      p.defines = std::move(defs.defines);
      p.defines_from = std::move(defs.from);
      out.push_back(std::move(p));
    }
  }
  std::sort(out.begin(), out.end(), [](const SuiteProgram& a, const SuiteProgram& b) { return a.name < b.name; });
  return out;
}

namespace {

std::string one_line(std::string s, std::size_t max = 140) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\t', ' ');
  return s.size() > max ? s.substr(0, max) + "..." : s;
}

// The line that says why a build failed: the runtime's own message naming what it cannot run
// (`wave64 CPU runtime: ... is not supported`) where there is one, else the first error.
std::string first_error_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, first;
  while (std::getline(in, line)) {
    if (line.find("wave64 CPU runtime:") != std::string::npos && line.find("error") != std::string::npos) return line;
    if (first.empty() && line.find("error") != std::string::npos) first = line;
  }
  if (!first.empty()) return first;
  return text.empty() ? "" : text.substr(0, text.find('\n'));
}

}  // namespace

std::string summarize(const Spec& s, const Outcome& o) {
  if (o.verdict == "build-failed") {
    const SideResult& side = !o.ref.built ? o.ref : o.port;
    return "build failed (" + o.build_failed_side +
           "): " + first_error_line(side.build.err.empty() ? side.build.out : side.build.err);
  }
  if (o.verdict == "unsupported")
    return o.unsupported + " (" + o.unsupported_where + ", " + o.unsupported_code + "; " + o.build_failed_side + ")";
  if (o.verdict == "timeout") return o.timeout_side == "both" ? "both sides timed out" : o.timeout_side + " timed out";
  if (o.verdict == "both-failed") return "reference: " + o.ref.failure + "; port: " + o.port.failure;
  if (!o.ref.failure.empty()) return "reference: " + o.ref.failure;
  if (!o.port.failure.empty()) return "port: " + o.port.failure;
  // A SAME after the reference's second run says what was left out ("0 lines compared" shows).
  if (o.verdict == "same") return o.note.empty() ? "" : "same once left out: " + o.note;
  const std::string rerun = o.note.empty() ? "" : " (reference run again: " + o.note + ")";
  if (o.stdout_compared && !o.out.equal && !o.out.first.empty())
    return (o.out.reordered ? "stdout: the same lines in another order; " : "stdout ") + describe(o.out.first.front()) +
           rerun;
  for (const FileComparison& f : o.files)
    if (!f.result.equal)
      return "file " + f.name + (f.result.first.empty() ? ": missing" : " " + describe(f.result.first.front()));
  (void)s;
  return {};
}

std::vector<SuiteEntry> run_suite(const SuiteOptions& o, const std::function<void(const std::string&)>& log) {
  const std::vector<SuiteProgram> programs = find_programs(o.ref_root, o.list_file);
  std::vector<SuiteEntry> entries(programs.size());
  fs::create_directories(o.results / "programs");
  std::atomic<std::size_t> next{0};
  std::mutex log_mutex;
  auto run_one = [&](std::size_t i) {
    const SuiteProgram& p = programs[i];
    SuiteEntry& e = entries[i];
    e.program = p;
    const fs::path result_file = o.results / "programs" / (safe_name(p.name) + ".json");
    std::error_code ec;
    if (!o.force && fs::is_regular_file(result_file, ec)) {
      try {
        const nlohmann::json j = nlohmann::json::parse(project::read_file(result_file));
        e.verdict = j.at("verdict").get<std::string>();
        e.ref_s = j.value("ref_s", 0.0);
        e.port_s = j.value("port_s", 0.0);
        e.first_difference = j.value("first_difference", "");
        e.detail = j.value("diffrun", nlohmann::json());
        e.resumed = true;
        return;
      } catch (const std::exception&) {
        // A damaged result is run again.
      }
    }
    const fs::path ref_dir = (o.ref_root / p.dir).lexically_normal();
    const fs::path port_dir = (o.port_root / p.dir).lexically_normal();
    if (!fs::is_directory(port_dir, ec)) {
      e.verdict = "not-runnable";
      e.first_difference = "no port folder " + port_dir.string();
    } else {
      Spec s = o.base;
      s.rerun_reference = true;  // output the original does not repeat is no port bug (docs/diffrun.md)
      s.ref.dir = ref_dir.string();
      s.port.dir = port_dir.string();
      Wave64Sides w = o.w64;
      w.sources = p.sources;
      w.include_dirs = p.include_dirs;
      if (!p.cxx_std.empty()) w.build_flags.push_back("--std=" + p.cxx_std);
      w.defines.insert(w.defines.end(), p.defines.begin(), p.defines.end());
      w.args = p.args + (o.extra_args.empty() ? "" : (p.args.empty() ? "" : " ") + o.extra_args);
      w.work = fs::absolute(o.results / "build" / safe_name(p.name)).string();
      // The folder's data files beside each side's executable: programs that look for their
      // input next to themselves (HIP-Examples' SDKUtil getPath(), from /proc/self/exe) find it
      // there as in the folder they are built in. Links, made once; sources are not linked.
      for (const auto& [from, side] : {std::pair{ref_dir, "ref"}, std::pair{port_dir, "port"}}) {
        const fs::path to = fs::path(w.work) / side;
        fs::create_directories(to, ec);
        for (const auto& f : fs::directory_iterator(from, ec)) {
          const fs::path& src = f.path();
          const std::string ext = src.extension().string();
          if (!f.is_regular_file(ec) || is_source(src) || ext == ".h" || ext == ".hpp" || ext == ".cuh" ||
              src.filename() == "Makefile" || src.filename() == "CMakeLists.txt" ||
              fs::exists(fs::symlink_status(to / src.filename(), ec)))
            continue;
          fs::create_symlink(fs::absolute(src), to / src.filename(), ec);
        }
      }
      try {
        apply_wave64(w, s);
        const Outcome out = run_diff(s);
        e.verdict = out.verdict;
        e.ref_s = out.ref.median_s;
        e.port_s = out.port.median_s;
        e.first_difference = one_line(summarize(s, out));
        e.detail = to_json(s, out);
        if (out.verdict == "both-failed" || out.verdict == "different") {
          // What the runtime does not run as a GPU would, named in the verdict (constructs.h).
          const std::vector<ConstructNote> notes = unsupported_constructs(ref_dir, 5, port_dir);
          if (!notes.empty()) {
            nlohmann::json cj = nlohmann::json::array();
            for (const ConstructNote& n : notes)
              cj.push_back({{"code", n.code}, {"file", n.file}, {"line", n.line}, {"message", n.message}});
            e.detail["constructs"] = cj;
            e.first_difference = one_line(e.first_difference + "; " + describe(notes), 600);
          }
        }
        if (out.verdict == "different" && (o.bisect || !o.unfixed_root.empty())) {
          LaunchBisectOptions lo;
          lo.port_dir = fs::absolute(port_dir).lexically_normal();
          lo.work = fs::path(w.work) / "bisect-launches";
          nlohmann::json bj = nlohmann::json::object();
          std::string why;
          if (!o.unfixed_root.empty()) {
            BisectOptions bo;
            bo.fixed_dir = port_dir;
            bo.unfixed_dir = (o.unfixed_root / p.dir).lexically_normal();
            bo.max_sites = o.bisect_max;
            const BisectResult b = bisect_fixes(s, w, bo);
            bj = to_json(b);
            lo.fix_sites = b.sites;
            why = "; bisect: " + b.conclusion;
          }
          const LaunchBisect lb = bisect_launches(s, lo);
          bj["launches"] = to_json(lb);
          e.detail["bisect"] = bj;
          e.first_difference = one_line(e.first_difference + why + "; launches: " + lb.conclusion, 600);
        }
      } catch (const std::exception& ex) {
        e.verdict = "not-runnable";
        e.first_difference = one_line(ex.what());
      }
    }
    const nlohmann::json j = {{"program", p.name},
                              {"verdict", e.verdict},
                              {"ref_s", e.ref_s},
                              {"port_s", e.port_s},
                              {"first_difference", e.first_difference},
                              {"args", p.args},
                              {"args_from", p.args_from},
                              {"defines", p.defines},
                              {"defines_from", p.defines_from},
                              {"sources", p.sources},
                              {"diffrun", e.detail}};
    project::write_atomically(result_file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    if (log) {
      const std::lock_guard<std::mutex> lock(log_mutex);
      log(fmt::format("{}: {}{}", p.name, e.verdict,
                      e.first_difference.empty() ? "" : " (" + e.first_difference + ")"));
    }
  };
  auto work = [&] {
    for (std::size_t i = next++; i < programs.size(); i = next++) {
      try {
        run_one(i);
      } catch (const std::exception& ex) {
        // One program's trouble (its result file, its output) is its own verdict, never the suite's end.
        entries[i].program = programs[i];
        entries[i].verdict = "not-runnable";
        entries[i].first_difference = one_line(std::string("internal: ") + ex.what());
      }
    }
  };
  std::vector<std::thread> pool;
  const unsigned jobs = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(programs.size())));
  for (unsigned t = 1; t < jobs; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return entries;
}

namespace {
std::string upper_verdict(std::string v) {
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return c == '-' ? ' ' : std::toupper(c); });
  return v;
}
std::string secs(double s) { return s > 0 ? fmt::format("{:.2f}", s) : "-"; }
}  // namespace

std::string suite_table(const std::vector<SuiteEntry>& entries) {
  std::size_t w = 7;
  for (const SuiteEntry& e : entries) w = std::max(w, e.program.name.size());
  std::string s =
      fmt::format("{:<{}}  {:<12}  {:>8}  {:>8}  {}\n", "program", w, "verdict", "ref s", "port s", "first difference");
  std::map<std::string, int> counts;
  for (const SuiteEntry& e : entries) {
    ++counts[e.verdict];
    s += fmt::format("{:<{}}  {:<12}  {:>8}  {:>8}  {}\n", e.program.name, w, upper_verdict(e.verdict), secs(e.ref_s),
                     secs(e.port_s), e.first_difference);
  }
  s += fmt::format("{} program(s):", entries.size());
  for (const auto& [v, n] : counts) s += fmt::format(" {} {}", n, upper_verdict(v));
  return s + "\n";
}

nlohmann::json suite_json(const SuiteOptions& o, const std::vector<SuiteEntry>& entries) {
  nlohmann::json programs = nlohmann::json::array();
  std::map<std::string, int> counts;
  for (const SuiteEntry& e : entries) {
    ++counts[e.verdict];
    programs.push_back({{"program", e.program.name},
                        {"verdict", e.verdict},
                        {"ref_s", e.ref_s},
                        {"port_s", e.port_s},
                        {"first_difference", e.first_difference},
                        {"args", e.program.args},
                        {"args_from", e.program.args_from},
                        {"sources", e.program.sources},
                        {"resumed", e.resumed}});
  }
  return {{"ref_root", o.ref_root.string()}, {"port_root", o.port_root.string()},  {"ref_wave", o.w64.ref_wave},
          {"port_wave", o.w64.port_wave},    {"device_model", o.w64.device_model}, {"counts", counts},
          {"programs", std::move(programs)}};
}

std::string suite_html(const nlohmann::json& suite) {
  auto esc = [](const std::string& t) {
    std::string r;
    for (const char c : t) {
      switch (c) {
        case '<': r += "&lt;"; break;
        case '>': r += "&gt;"; break;
        case '&': r += "&amp;"; break;
        case '"': r += "&quot;"; break;
        default: r += c;
      }
    }
    return r;
  };
  std::string h =
      "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>ferry diffrun --wave64 --suite</title>\n"
      "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:.3em .8em;"
      "border-bottom:1px solid #ddd;text-align:left}td.n{text-align:right}.same{color:#070}.different{color:#b00}"
      ".both-failed,.build-failed,.timeout,.not-runnable,.unsupported{color:#a60}</style></head><body>\n";
  h += "<h1>Reference vs port on the wave64 CPU runtime</h1>\n<p>reference: <code>" + esc(suite.value("ref_root", "")) +
       "</code> &middot; port: <code>" + esc(suite.value("port_root", "")) + "</code></p>\n<p>";
  for (const auto& [v, n] : suite.at("counts").items()) h += esc(upper_verdict(v)) + ": " + n.dump() + " &nbsp; ";
  h += "</p>\n<table><tr><th>program</th><th>verdict</th><th>ref s</th><th>port s</th><th>first difference</th></tr>\n";
  for (const nlohmann::json& p : suite.at("programs")) {
    const std::string v = p.value("verdict", "");
    h += "<tr><td>" + esc(p.value("program", "")) + "</td><td class=\"" + esc(v) + "\">" + esc(upper_verdict(v)) +
         "</td><td class=\"n\">" + secs(p.value("ref_s", 0.0)) + "</td><td class=\"n\">" +
         secs(p.value("port_s", 0.0)) + "</td><td>" + esc(p.value("first_difference", "")) + "</td></tr>\n";
  }
  return h + "</table></body></html>\n";
}

}  // namespace ferry::diffrun
