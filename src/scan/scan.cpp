// scan_project: the walk (generated folders skipped), the parallel per-file scan, and the
// aggregation into one Inventory (uses, build systems, libraries, effort).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "buildsys/build_files.h"
#include "migrate/file_migration.h"
#include "scan/scanner.h"

namespace fs = std::filesystem;

namespace ferry::scan {

using project::classify;
using project::kind_name;
using project::ProjectFile;
using project::read_source;
using project::TextRead;
using project::Walk;
using project::walk_tree;
using project::WalkOptions;

namespace detail {

// Support of constructs that are not names in a table, per target. A new target
// adds its row here; a target without a row reports "unknown".
std::string construct_status(std::string_view target, std::string_view construct) {
  struct Row {
    std::string_view target, construct, status;
  };
  static constexpr Row kRows[] = {
      {"hip", "kernel", "supported"},        {"hip", "launch", "supported"},  {"hip", "inline-asm", "unsupported"},
      {"hip", "pytorch", "supported"},       {"cuda", "kernel", "supported"}, {"cuda", "launch", "supported"},
      {"cuda", "inline-asm", "unsupported"},
  };
  for (const Row& r : kRows)
    if (r.target == target && r.construct == construct) return std::string(r.status);
  return "unknown";
}

}  // namespace detail

namespace {

using namespace detail;

bool is_bazel_name(const fs::path& rel) {
  const std::string n = rel.filename().string();
  return n == "BUILD" || n == "BUILD.bazel" || n == "WORKSPACE" || n == "WORKSPACE.bazel" || n == "MODULE.bazel" ||
         rel.extension() == ".bzl";
}

// The kinds scan migrates in memory to see what the migration leaves (the effort estimate).
bool migrated_kind(std::string_view kind) {
  return kind == "cuda" || kind == "cuda-header" || kind == "hip" || kind == "c++" || kind == "header";
}

bool parsed_kind(std::string_view kind) {
  return kind == "cuda" || kind == "cuda-header" || kind == "hip" || kind == "c++" || kind == "header" ||
         kind == "python" || kind == "cmake" || kind == "makefile" || kind == "bazel";
}

void scan_into(const std::string& rel, const std::string& kind, std::string_view text,
               const std::vector<const targets::Target*>& targets, FileScan& out) {
  if (targets.empty()) throw std::invalid_argument("scanning needs at least one target");
  Scanner sc(rel, text, targets, out);
  if (kind == "python") {
    sc.scan_python(false);
    out.framework = framework_uses(rel, text);
  } else if (kind == "bazel") sc.scan_python(true);
  else if (kind == "cmake") sc.scan_cmake();
  else if (kind == "makefile") sc.scan_make();
  else sc.scan_c_family();
  out.file.parsed = true;
}

}  // namespace

void scan_buffer(const std::string& rel, const std::string& kind, std::string_view text,
                 const std::vector<const targets::Target*>& targets, FileInventory& file, std::vector<ApiUse>& uses,
                 std::vector<BuildSystem>& builds) {
  FileScan scan;
  scan.file = file;
  scan_into(rel, kind, text, targets, scan);
  file = std::move(scan.file);
  // Names this file #defines itself are the user's, even with a CUDA-looking
  // prefix.
  for (std::size_t i = 0; i < scan.uses.size(); ++i)
    if (!scan.guessed[i] || !scan.defined_macros.contains(scan.uses[i].name)) uses.push_back(std::move(scan.uses[i]));
  std::stable_sort(uses.begin(), uses.end(), [](const ApiUse& a, const ApiUse& b) {
    return std::tie(a.file, a.line, a.col) < std::tie(b.file, b.line, b.col);
  });
  for (auto& b : scan.builds) builds.push_back(std::move(b));
}

Inventory scan_project(const fs::path& path, const ScanOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  Inventory inv;
  inv.root = path.string();

  // Targets first: bad options are the caller's error, not the input's.
  std::vector<std::unique_ptr<targets::Target>> owned;
  if (options.targets.empty()) {
    for (const targets::TargetInfo* info : targets::list_targets())
      if (info->source_dialect == options.from) owned.push_back(info->make(options.target_options));
    if (owned.empty()) throw std::invalid_argument("no registered target migrates from '" + options.from + "'");
  } else {
    for (const std::string& name : options.targets) {
      auto t = targets::make_target(name, options.target_options);
      if (t->source_dialect() != options.from)
        throw std::invalid_argument("target '" + name + "' migrates from " + std::string(t->source_dialect()) +
                                    ", not from '" + options.from + "' (use --from " +
                                    std::string(t->source_dialect()) + ")");
      owned.push_back(std::move(t));
    }
  }
  std::vector<const targets::Target*> tgts;
  for (const auto& t : owned) {
    tgts.push_back(t.get());
    inv.targets.emplace_back(t->name());
  }
  // The lexer's offsets are 32-bit: never hand it 4 GiB or more.
  const std::uintmax_t max_size = std::min<std::uintmax_t>(options.max_file_size, (4ull << 30) - 1);

  // ---- the files to look at ----
  std::vector<ProjectFile> files;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    const fs::file_status lst = fs::symlink_status(path, ec);
    const bool dangling = fs::is_symlink(lst);
    inv.problems.push_back(
        {dangling ? Diag::Unreadable : Diag::PathMissing, Severity::Error, path.string(), 0, 0,
         dangling ? "broken symbolic link (or a link loop): nothing to scan" : "no such file or directory",
         "pass an existing file or project folder"});
    inv.fatal = true;
  } else if (fs::is_directory(st)) {
    try {
      WalkOptions wo;
      wo.max_file_size = max_size;
      Walk walk = walk_tree(path, wo);
      files = std::move(walk.files);
      for (auto& d : walk.problems) inv.problems.push_back(std::move(d));
    } catch (const std::exception& e) {
      inv.problems.push_back({Diag::Unreadable, Severity::Error, path.string(), 0, 0,
                              std::string("cannot walk the folder: ") + e.what(), "check the permissions"});
      inv.fatal = true;
    }
  } else if (fs::is_regular_file(st)) {
    inv.single_file = true;
    const fs::path name = path.filename();
    files.push_back({name.generic_string(), classify(name), fs::file_size(path, ec)});
  } else {
    inv.problems.push_back({Diag::Unreadable, Severity::Error, path.string(), 0, 0,
                            "not a regular file or folder (a FIFO, socket or device): not read",
                            "pass a source file or a project folder"});
    inv.fatal = true;
  }

  // Nested Ferry outputs and CMake build folders are generated, not the user's
  // source.
  if (!inv.single_file && !files.empty()) {
    std::set<std::string> generated;
    std::set<std::string> dirs;
    for (const ProjectFile& f : files) {
      const fs::path rel(f.rel);
      if (rel.filename() == "CMakeCache.txt" && rel.has_parent_path())
        generated.insert(rel.parent_path().generic_string());
      for (fs::path d = rel.parent_path(); !d.empty(); d = d.parent_path()) {
        if (!dirs.insert(d.generic_string()).second) break;
      }
    }
    for (const std::string& d : dirs)
      if (fs::exists(path / d / ".ferry" / "manifest.json", ec)) generated.insert(d);
    // Keep only outermost folders.
    std::vector<std::string> outer;
    for (const std::string& d : generated)
      if (outer.empty() || !starts(d, outer.back() + "/")) outer.push_back(d);
    for (const std::string& d : outer) {
      const bool ferry = fs::exists(path / d / ".ferry" / "manifest.json", ec);
      inv.problems.push_back(
          {Diag::GeneratedInsideInput, Severity::Note, d, 0, 0,
           std::string(ferry ? "Ferry output folder" : "CMake build folder") + " inside the input: skipped",
           ferry ? "keep migration outputs outside the input tree (ferry "
                   "migrate refuses "
                   "to write inside it)"
                 : "build out of the source tree, or scan the source folder "
                   "only"});
    }
    std::erase_if(files, [&](const ProjectFile& f) {
      return std::any_of(outer.begin(), outer.end(), [&](const std::string& d) { return starts(f.rel, d + "/"); });
    });
  }

  // ---- parallel scan ----
  // The folder the files' paths are relative to (ProjectFile::abs): one file's is its folder.
  const fs::path root = inv.single_file ? path.parent_path() : path;
  std::vector<FileScan> scans(files.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= files.size()) return;
      const ProjectFile& pf = files[i];
      FileScan& out = scans[i];
      // Reported when this iteration ends, whichever way it ends.
      const std::unique_ptr<const ProjectFile, std::function<void(const ProjectFile*)>> tick(
          &pf, [&options](const ProjectFile* f) {
            if (options.on_file_done) options.on_file_done(f->size);
          });
      out.file.rel = pf.rel;
      out.file.kind = is_bazel_name(pf.rel) ? "bazel" : kind_name(pf.kind);
      out.file.size = pf.size;
      if (!parsed_kind(out.file.kind)) continue;
      try {
        TextRead read = read_source(pf.abs(root), pf.rel, max_size);
        out.problems = std::move(read.problems);
        if (!read.text) continue;
        scan_into(pf.rel, out.file.kind, *read.text, tgts, out);
        if (!out.builds.empty() && (out.file.kind == "cmake" || out.file.kind == "makefile"))
          for (const targets::Target* t : tgts) try {
              const auto r = t->migrate_build_file(pf.rel, pf.kind, *read.text, buildsys::Options{});
              if (!r) continue;
              std::vector<Diagnostic>& left = out.build_left[std::string(t->name())];
              for (const Diagnostic& d : r->diagnostics)
                if (d.severity != Severity::Note) left.push_back(d);
            } catch (const std::exception&) {
              out.build_left.erase(std::string(t->name()));
            }
        if (!out.uses.empty() && migrated_kind(out.file.kind))
          for (const targets::Target* t : tgts) try {
              const targets::ProjectContext ctx;
              std::vector<Diagnostic>& left = out.left[std::string(t->name())];
              for (Diagnostic& d :
                   migrate::migrate_buffer(pf.rel, *read.text, *t, options.target_options, ctx).diagnostics)
                if (d.severity != Severity::Note) left.push_back(std::move(d));
            } catch (const std::exception&) {
              out.left.erase(std::string(t->name()));  // no estimate from it: the API-use model
            }
      } catch (const std::exception& e) {
        out.problems.push_back({Diag::Unreadable, Severity::Error, pf.rel, 0, 0,
                                std::string("cannot scan: ") + e.what(), "check that the file is readable"});
      }
    }
  };
  const unsigned jobs =
      std::max(1u, std::min<unsigned>(options.jobs, static_cast<unsigned>(std::max<std::size_t>(1, files.size()))));
  if (options.on_start) {
    std::uintmax_t bytes = 0;
    for (const ProjectFile& f : files) bytes += f.size;
    options.on_start(files.size(), bytes);
  }
  {
    std::vector<std::jthread> pool;
    for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(worker);
    worker();
  }
  if (inv.single_file && !scans.empty() && !scans.front().file.parsed && !scans.front().problems.empty())
    for (const Diagnostic& d : scans.front().problems) inv.fatal = inv.fatal || d.code == Diag::Unreadable;

  // ---- aggregate ----
  std::set<std::string> project_macros;  // names the project #defines: the user's, not CUDA's
  for (const FileScan& s : scans) project_macros.insert(s.defined_macros.begin(), s.defined_macros.end());
  std::map<std::string, std::map<std::string, std::vector<Diagnostic>>> build_left;  // file -> target
  std::vector<FrameworkUse> framework;
  for (FileScan& s : scans) {
    std::move(s.framework.begin(), s.framework.end(), std::back_inserter(framework));
    if (!s.build_left.empty()) build_left[s.file.rel] = std::move(s.build_left);
    for (auto& d : s.problems) inv.problems.push_back(std::move(d));
    for (auto& b : s.builds) inv.build_systems.push_back(std::move(b));
    std::vector<const ApiUse*> mine;
    const std::size_t first = inv.uses.size();
    for (std::size_t i = 0; i < s.uses.size(); ++i) {
      if (s.guessed[i] && project_macros.contains(s.uses[i].name)) continue;
      inv.uses.push_back(std::move(s.uses[i]));
    }
    std::stable_sort(
        inv.uses.begin() + static_cast<std::ptrdiff_t>(first), inv.uses.end(),
        [](const ApiUse& a, const ApiUse& b) { return std::tie(a.line, a.col) < std::tie(b.line, b.col); });
    FileInventory& f = s.file;
    for (std::size_t i = first; i < inv.uses.size(); ++i) {
      const ApiUse& u = inv.uses[i];
      mine.push_back(&u);
      ++f.uses;
      f.kernels += u.kind == "kernel";
      f.launches += u.kind == "launch";
      f.warp_intrinsics += u.kind == "warp-intrinsic";
      f.inline_asm += u.kind == "inline-asm";
      for (const auto& [t, status] : u.status) ++f.status_counts[t][status];
    }
    const bool source =
        f.parsed && f.kind != "python" && f.kind != "cmake" && f.kind != "makefile" && f.kind != "bazel";
    for (const std::string& t : inv.targets) {
      const auto left = s.left.find(t);
      if (left == s.left.end()) {
        f.effort[t] = file_effort(mine, t, source);
      } else {
        f.migrated = true;
        f.effort[t] = migrated_effort(mine, left->second, t);
        std::set<std::uint32_t> flagged;  // lines the migration left a warning or error on
        for (const Diagnostic& d : left->second) {
          ++f.left[t][std::string(to_string(d.code))];
          ++inv.left[t][std::string(to_string(d.code))];
          flagged.insert(d.line);
        }
        for (const ApiUse* u : mine) {
          const auto st = u->status.find(t);
          if (st == u->status.end()) continue;
          ++f.judged[t];
          if ((st->second == "supported" || st->second == "deprecated") && !flagged.contains(u->line)) ++f.automatic[t];
        }
        inv.judged[t] += f.judged[t];
        inv.automatic[t] += f.automatic[t];
      }
      inv.effort[t].hours += f.effort[t].hours;
    }
    ++inv.kind_counts[f.kind];
    inv.bytes += f.size;
    inv.files.push_back(std::move(f));
  }
  // Build systems cost their own port (docs/scan.md): what converting the file leaves, for a
  // target that converts build files; else CMake 2 h, Make 1 h, setuptools 0.5 h, Bazel 4 h.
  std::set<std::pair<std::string, std::string>> build_files;
  for (const BuildSystem& b : inv.build_systems) build_files.insert({b.id, b.file});
  for (const auto& [id, file] : build_files) {
    const double flat = id == "cmake" ? 2.0 : id == "make" ? 1.0 : id == "setuptools" ? 0.5 : 4.0;
    const auto left = build_left.find(file);
    for (const std::string& t : inv.targets) {
      if (left == build_left.end() || !left->second.contains(t)) {
        inv.effort[t].hours += flat;
        continue;
      }
      inv.effort[t].hours += build_effort(left->second.at(t));
      for (const Diagnostic& d : left->second.at(t)) ++inv.left[t][std::string(to_string(d.code))];
    }
  }
  for (const std::string& t : inv.targets) inv.effort[t].level = overall_level(inv.effort[t].hours);

  inv.libraries = detail::library_uses(inv.uses);
  inv.framework = framework_coverage(std::move(framework));
  sort_diagnostics(inv.problems);
  inv.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return inv;
}

}  // namespace ferry::scan
