#include "verify/plan.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "project/project.h"
#include "verify/openmp.h"

namespace fs = std::filesystem;

namespace ferry::verify {
namespace {

std::string lower_ext(std::string_view rel) {
  std::string ext = fs::path(rel).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

bool excluded(const std::string& rel, const std::vector<std::string>& exclude) {
  // Never compile what CMake left behind (compiler-id probes) or Ferry's own state.
  for (const auto& part : fs::path(rel))
    if (part == "CMakeFiles" || part == ".ferry" || part == ".git") return true;
  for (const std::string& e : exclude) {
    std::string p = e;
    while (!p.empty() && p.back() == '/') p.pop_back();
    if (rel == p || rel.compare(0, p.size() + 1, p + "/") == 0) return true;
  }
  return false;
}

fs::path absolute_under(const fs::path& dir, const std::string& p) {
  fs::path path(p);
  if (path.is_relative()) path = dir / path;
  return path.lexically_normal();
}

std::optional<fs::path> move_root(const fs::path& p, const fs::path& from, const fs::path& to) {
  const fs::path rel = p.lexically_relative(from.lexically_normal());
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return (to / rel).lexically_normal();
}

std::optional<fs::path> find_database(const PlanOptions& o) {
  if (o.compile_commands) return o.compile_commands;
  std::vector<fs::path> roots{o.root};
  if (o.input) roots.push_back(*o.input);
  std::error_code ec;
  for (const fs::path& r : roots) {
    if (fs::is_regular_file(r / "compile_commands.json", ec)) return r / "compile_commands.json";
    std::vector<fs::path> builds;
    for (const auto& e : fs::directory_iterator(r, ec))
      if (e.is_directory(ec) && e.path().filename().string().rfind("build", 0) == 0 &&
          fs::is_regular_file(e.path() / "compile_commands.json", ec))
        builds.push_back(e.path() / "compile_commands.json");
    std::sort(builds.begin(), builds.end());
    if (!builds.empty()) return builds.front();
  }
  return std::nullopt;
}

}  // namespace

bool is_translation_unit(std::string_view rel) {
  const std::string ext = lower_ext(rel);
  return ext == ".cu" || ext == ".hip" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c++" ||
         ext == ".c";
}

std::vector<std::string> split_command(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  bool have = false;
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < s.size()) cur += s[++i];
      else cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      have = true;
    } else if (c == '\\' && i + 1 < s.size()) {
      cur += s[++i];
      have = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (have) out.push_back(std::move(cur)), cur.clear(), have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (have) out.push_back(std::move(cur));
  return out;
}

std::vector<std::string> translate_flags(const std::vector<std::string>& args, const fs::path& directory,
                                         const fs::path& from_root, const fs::path& to_root, bool drop_cuda_paths) {
  std::vector<std::string> out;
  auto map_path = [&](const std::string& p) -> std::optional<std::string> {
    const fs::path abs = absolute_under(directory, p);
    if (auto moved = move_root(abs, from_root, to_root)) return moved->string();
    if (move_root(abs, to_root, to_root)) return abs.string();
    if (drop_cuda_paths && abs.string().find("cuda") != std::string::npos) return std::nullopt;
    return abs.string();
  };
  static const std::vector<std::string> kPathFlags = {"-I", "-isystem", "-iquote", "-include", "-idirafter"};
  for (std::size_t i = 1; i < args.size(); ++i) {  // args[0] is the compiler
    const std::string& a = args[i];
    bool handled = false;
    for (const std::string& f : kPathFlags) {
      if (a == f && i + 1 < args.size()) {
        if (auto p = map_path(args[++i])) out.insert(out.end(), {f, *p});
        handled = true;
        break;
      }
      if (f == "-I" && a.size() > 2 && a.compare(0, 2, "-I") == 0) {
        if (auto p = map_path(a.substr(2))) out.push_back("-I" + *p);
        handled = true;
        break;
      }
    }
    if (handled) continue;
    if (is_openmp_flag(a) ||
        ((a == "-Xcompiler" || a == "--compiler-options") && i + 1 < args.size() && is_openmp_flag(args[i + 1]))) {
      // OpenMP is the host compiler's: kept toolchain-neutral, spelled by compile_command().
      if (a == "-Xcompiler" || a == "--compiler-options") ++i;
      if (std::find(out.begin(), out.end(), kOpenmpFlag) == out.end()) out.emplace_back(kOpenmpFlag);
    } else if ((a == "-D" || a == "-U") && i + 1 < args.size()) {
      out.push_back(a + args[++i]);
    } else if ((a.compare(0, 2, "-D") == 0 || a.compare(0, 2, "-U") == 0) && a.size() > 2) {
      out.push_back(a);
    } else if (a.compare(0, 5, "-std=") == 0 || a.compare(0, 6, "--std=") == 0) {
      out.push_back(a[1] == '-' ? a.substr(1) : a);
    } else if ((a == "-std" || a == "--std") && i + 1 < args.size()) {
      out.push_back("-std=" + args[++i]);
    } else if (a == "-o" || a == "-Xcompiler" || a == "-Xptxas" || a == "-Xlinker" || a == "-ccbin" ||
               a == "-gencode" || a == "-arch" || a == "--generate-code" || a == "--gpu-architecture" || a == "-x" ||
               a == "--options-file" || a == "-MF" || a == "-MT" || a == "-MQ") {
      ++i;  // a flag with a separate value that makes no sense for the other toolchain
    }
    // anything else (nvcc-only flags, -arch=, -O, -c, -g, the source file) is dropped
  }
  return out;
}

std::vector<std::string> compile_command(const std::string& compiler, const analysis::Profile& profile,
                                         const std::string& source, bool is_c, const std::vector<std::string>& flags,
                                         const std::string& object) {
  std::vector<std::string> cmd{compiler};
  if (profile.toolchain == "nvcc") {
    cmd.insert(cmd.end(), {"-x", is_c ? "c" : "cu", "-c", profile.flag});
  } else {
    cmd.insert(cmd.end(), {"-x", is_c ? "c" : "hip", "-c"});
    if (!is_c) {
      cmd.push_back(profile.flag);  // device code is really generated for this arch
      // The C++ dialect the CUDA source was written for: nvcc's default is C++17 (nvcc 12/13),
      // HIP 5.x's hipcc defaults to C++11. A unit whose flags name no standard gets nvcc's.
      if (std::none_of(flags.begin(), flags.end(), [](const std::string& f) { return f.rfind("-std=", 0) == 0; }))
        cmd.push_back("-std=c++17");
    }
    // hipcc defines the platform for HIP sources only; a C file including hip_runtime_api.h stops
    // at its "Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__". A HIP
    // build gives it to every language (CMake's hip::host), so verify does as well.
    else
      cmd.push_back("-D__HIP_PLATFORM_AMD__");
  }
  for (const std::string& f : flags) {
    if (f == kOpenmpFlag && profile.toolchain == "nvcc") cmd.push_back("-Xcompiler");  // a host flag for nvcc
    cmd.push_back(f);
  }
  cmd.insert(cmd.end(), {"-w", source, "-o", object});
  return cmd;
}

Plan make_plan(const PlanOptions& o) {
  Plan plan;
  project::WalkOptions wo;
  project::Walk walk = project::walk_tree(o.root, wo);

  // Inferred include directories: every include/ folder, every folder holding headers, the root.
  std::set<std::string> include_dirs;
  std::set<std::string> header_dirs;
  std::vector<std::string> tus;
  for (const project::ProjectFile& f : walk.files) {
    if (excluded(f.rel, o.exclude)) continue;
    plan.files.insert(f.rel);
    const fs::path rel(f.rel);
    for (fs::path d = rel.parent_path(); !d.empty(); d = d.parent_path())
      if (d.filename() == "include") include_dirs.insert(d.generic_string());
    if (f.kind == project::FileKind::Header || f.kind == project::FileKind::CudaHeader) {
      const std::string d = rel.parent_path().generic_string();
      header_dirs.insert(d.empty() ? "." : d);
    }
    if (is_translation_unit(f.rel)) tus.push_back(f.rel);
  }
  std::vector<std::string> inferred;
  for (const std::string& d : include_dirs) inferred.push_back("-I" + d);
  for (const std::string& d : header_dirs)
    if (!include_dirs.count(d) && d != ".") inferred.push_back("-I" + d);
  inferred.push_back("-I.");

  // compile_commands.json: per-file flags, translated for the tree being verified.
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> db_flags;
  plan.compile_commands = find_database(o);
  if (plan.compile_commands) {
    nlohmann::json db;
    try {
      db = nlohmann::json::parse(project::read_file(*plan.compile_commands));
    } catch (const std::exception& e) {
      throw std::runtime_error(plan.compile_commands->string() + ": unreadable compilation database (" + e.what() +
                               ")");
    }
    const fs::path input =
        o.input ? fs::absolute(*o.input).lexically_normal() : fs::absolute(o.root).lexically_normal();
    const fs::path root = fs::absolute(o.root).lexically_normal();
    for (const auto& entry : db) {
      if (!entry.contains("file") || !entry.contains("directory")) continue;
      const fs::path dir = entry["directory"].get<std::string>();
      const fs::path file = absolute_under(dir, entry["file"].get<std::string>());
      std::optional<fs::path> rel_path;
      for (const fs::path& r : {input, root}) {
        const fs::path rel = file.lexically_relative(r);
        if (!rel.empty() && *rel.begin() != "..") {
          rel_path = rel;
          break;
        }
      }
      if (!rel_path) continue;
      std::vector<std::string> args = entry.contains("arguments")
                                          ? entry["arguments"].get<std::vector<std::string>>()
                                          : split_command(entry.value("command", std::string()));
      db_flags[rel_path->generic_string()] = {translate_flags(args, dir, input, root, true),
                                              translate_flags(args, dir, input, input, false)};
    }
  }

  for (const std::string& rel : tus) {
    TranslationUnit tu;
    tu.rel = rel;
    tu.is_c = lower_ext(rel) == ".c";
    if (auto it = db_flags.find(rel); it != db_flags.end()) {
      tu.flags = it->second.first;
      tu.orig_flags = it->second.second;
      tu.flag_source = "compile_commands.json";
    } else {
      tu.flags = inferred;
      tu.orig_flags = inferred;
    }
    plan.units.push_back(std::move(tu));
  }
  return plan;
}

}  // namespace ferry::verify
