#include "diffrun/bisect.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include "diffrun/suite.h"
#include "project/project.h"

namespace ferry::diffrun {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

bool read_text(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return out.find('\0') == std::string::npos;  // text files only
}

std::string trimmed(const std::string& s, std::size_t max = 160) {
  const std::size_t a = s.find_first_not_of(" \t");
  std::string t = a == std::string::npos ? "" : s.substr(a);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.pop_back();
  return t.size() > max ? t.substr(0, max) + "..." : t;
}

std::string one_line(std::string s, std::size_t max = 200) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\t', ' ');
  return s.size() > max ? s.substr(0, max) + "..." : s;
}

// Folders of migration bookkeeping and of earlier bisect variants are not the program.
bool skipped_dir(const fs::path& p) {
  const std::string n = p.filename().string();
  return n == ".ferry" || n.ends_with(".ferry-bisect");
}

}  // namespace

std::vector<BisectSite> fix_sites(const fs::path& fixed_dir, const fs::path& unfixed_dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(fixed_dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory(ec) && skipped_dir(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(fs::relative(it->path(), fixed_dir, ec));
  }
  std::sort(files.begin(), files.end());
  std::vector<BisectSite> sites;
  for (const fs::path& rel : files) {
    std::string a, b;
    if (!read_text(fixed_dir / rel, a) || !read_text(unfixed_dir / rel, b) || a == b) continue;
    const std::vector<std::string> la = split_lines(a), lb = split_lines(b);
    if (la.size() != lb.size()) {
      sites.push_back({rel.generic_string(), 0, "", "", "", ""});
      continue;
    }
    for (std::size_t i = 0; i < la.size(); ++i)
      if (la[i] != lb[i]) sites.push_back({rel.generic_string(), static_cast<int>(i + 1), la[i], lb[i], "", ""});
  }
  return sites;
}

BisectResult bisect_fixes(const Spec& spec, const Wave64Sides& w, const BisectOptions& o,
                          const std::function<void(const std::string&)>& log) {
  auto say = [&](const std::string& m) {
    if (log) log(m);
  };
  BisectResult r;
  // The reference was built by the run being bisected: only run it again.
  Spec base = spec;
  base.ref.build.clear();
  auto variant = [&](const fs::path& dir, const std::string& name) {
    Spec v = base;
    Side port = spec.port;
    port.dir = dir.string();
    v.port = wave64_side(w, port, name, w.port_wave, w.port_api);
    return v;
  };

  {
    const Spec v = variant(o.unfixed_dir, "bisect-unfixed");
    const Outcome u = run_diff(v);
    r.unfixed_verdict = u.verdict;
    r.unfixed_first_difference = one_line(summarize(v, u));
    say("bisect: the port without any wave64 fix: " + u.verdict);
  }

  r.sites = fix_sites(o.fixed_dir, o.unfixed_dir);
  say("bisect: " + std::to_string(r.sites.size()) + " fix site(s)");
  // The variant: the port's folder copied beside it (so that `../` includes still resolve), one
  // site at a time taken from the unfixed migration.
  const fs::path vdir = o.fixed_dir.parent_path() / (o.fixed_dir.filename().string() + ".ferry-bisect");
  std::error_code ec;
  fs::remove_all(vdir, ec);
  fs::copy(o.fixed_dir, vdir, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error("--bisect: cannot copy " + o.fixed_dir.string() + ": " + ec.message());
  std::string restore_file;  // the file changed for the previous variant
  for (std::size_t i = 0; i < r.sites.size(); ++i) {
    BisectSite& s = r.sites[i];
    if (i >= o.max_sites) {
      r.skipped = r.sites.size() - i;
      break;
    }
    if (!restore_file.empty())
      fs::copy_file(o.fixed_dir / restore_file, vdir / restore_file, fs::copy_options::overwrite_existing, ec);
    std::string text;
    if (s.line == 0) {
      if (!read_text(o.unfixed_dir / s.file, text)) continue;
    } else {
      std::string fixed;
      if (!read_text(o.fixed_dir / s.file, fixed)) continue;
      std::vector<std::string> lines = split_lines(fixed);
      lines[static_cast<std::size_t>(s.line - 1)] = s.unfixed;
      for (const std::string& l : lines) text += l + "\n";
    }
    project::write_atomically(vdir / s.file, text);
    restore_file = s.file;
    const Spec v = variant(vdir, "bisect");
    const Outcome out = run_diff(v);
    s.verdict = out.verdict;
    s.first_difference = one_line(summarize(v, out));
    say("bisect: without the fix at " + s.file + ":" + std::to_string(s.line) + ": " + out.verdict);
    if (out.same()) {
      r.culprit = static_cast<int>(i);
      break;
    }
  }
  fs::remove_all(vdir, ec);

  if (r.culprit >= 0) {
    const BisectSite& s = r.sites[static_cast<std::size_t>(r.culprit)];
    r.conclusion = "the wave64 fix at " + s.file +
                   (s.line ? ":" + std::to_string(s.line) : std::string(" (whole file)")) +
                   " makes the difference: without it the port computes what the reference does";
  } else if (r.sites.empty()) {
    r.conclusion = "the port has no wave64 fix in its folder: the difference is not a fix's";
  } else if (r.unfixed_verdict == "same") {
    r.conclusion =
        "no single fix explains it, but the port without any fix computes what the reference does: fixes together "
        "make the difference";
  } else {
    r.conclusion = "no fix explains it: the port differs without any wave64 fix too (" + r.unfixed_verdict +
                   "): a hazard the fixer left, or a construct the port computes otherwise";
  }
  return r;
}

nlohmann::json to_json(const BisectResult& b) {
  nlohmann::json sites = nlohmann::json::array();
  for (const BisectSite& s : b.sites)
    sites.push_back({{"file", s.file},
                     {"line", s.line},
                     {"fixed", s.fixed},
                     {"unfixed", s.unfixed},
                     {"verdict", s.verdict},
                     {"first_difference", s.first_difference}});
  nlohmann::json j = {{"unfixed_verdict", b.unfixed_verdict},
                      {"unfixed_first_difference", b.unfixed_first_difference},
                      {"sites", sites},
                      {"skipped", b.skipped},
                      {"conclusion", b.conclusion}};
  if (b.culprit >= 0) j["culprit"] = sites[static_cast<std::size_t>(b.culprit)];
  return j;
}

std::string to_text(const BisectResult& b) {
  std::string t = "bisect: the port without any wave64 fix: " + b.unfixed_verdict +
                  (b.unfixed_first_difference.empty() ? "" : " (" + b.unfixed_first_difference + ")") + "\n";
  for (std::size_t i = 0; i < b.sites.size(); ++i) {
    const BisectSite& s = b.sites[i];
    if (s.verdict.empty()) continue;
    t += "  without the fix at " + s.file + ":" + std::to_string(s.line) + ": " + s.verdict;
    if (s.line) t += "   `" + trimmed(s.fixed) + "`  (unfixed: `" + trimmed(s.unfixed) + "`)";
    t += static_cast<int>(i) == b.culprit ? "   <- this fix\n" : "\n";
  }
  if (b.skipped) t += "  " + std::to_string(b.skipped) + " more site(s) not run (--bisect-max)\n";
  t += "bisect: " + b.conclusion + "\n";
  return t;
}

}  // namespace ferry::diffrun
