#include "migrate/rounds.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "analysis/wave64_fix.h"
#include "core/diagnostic_json.h"
#include "migrate/merge3.h"
#include "migrate/migrate_tree.h"

namespace fs = std::filesystem;

namespace ferry::migrate::rounds {
namespace {

constexpr const char* kManifest = ".ferry/manifest.json";
constexpr const char* kJournal = ".ferry/journal.jsonl";
constexpr const char* kObjects = ".ferry/objects";
constexpr const char* kHistory = ".ferry/rounds.json";

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::optional<std::string> read_if_exists(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  try {
    return project::read_file(p);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool looks_binary(std::string_view s) { return s.find('\0') != std::string_view::npos; }

std::string diag_key(const std::string& file, const nlohmann::json& d) {
  return file + "\x1f" + d.value("code", "") + "\x1f" + d.value("message", "");
}

}  // namespace

std::string fingerprint(const targets::Target& target, const targets::Options& options,
                        const targets::ProjectContext& project, std::string_view extra) {
  std::string s;
  s += FERRY_VERSION;
  s += '\n';
  s += target.name();
  s += '\n';
  for (const std::string_view v : target.option_values()) (s += v) += '\n';  // the target's own options
  s += extra;
  s += '\n';
  for (const auto& r : target.rules().all()) {
    s += r->from;
    s += '\t';
    s += r->to;
    s += '\t';
    s += std::to_string(static_cast<int>(r->status));
    s += '\t';
    s += r->note;
    s += '\t';  // the target release's view of the row (hip: --hip-version)
    s += std::to_string(static_cast<int>(r->availability));
    s += r->compat;
    s += '\n';
  }
  for (const auto& f : options.user_rule_files) {
    s += f + '\n';
    if (auto t = read_if_exists(f)) s += *t;
  }
  std::map<std::string, std::string> clashes(project.clash_renames.begin(), project.clash_renames.end());
  for (const auto& [k, v] : clashes) s += k + '=' + v + '\n';
  std::vector<std::string> macros(project.defined_macros.begin(), project.defined_macros.end());
  std::sort(macros.begin(), macros.end());
  for (const std::string& m : macros) s += "#define " + m + '\n';
  // What the sources tell the build files (cuda target): a new device lambda changes the Makefile.
  for (const auto& [m, at] : project.build_facts.wave64_macros) s += "wave64 " + m + '\n';
  for (const auto& [m, at] : project.build_facts.width_macros) s += "width " + m + '\n';
  if (!project.build_facts.extended_lambda.empty()) s += "flag --extended-lambda\n";
  if (!project.build_facts.relaxed_constexpr.empty()) s += "flag --expt-relaxed-constexpr\n";
  // The lane-math fixes are decided project-wide: a change in one file can change another's.
  if (project.wave64_fixes)
    for (const auto& [file, plan] : project.wave64_fixes->files)
      for (const analysis::Wave64ByteEdit& e : plan.edits)
        s += file + ':' + std::to_string(e.begin) + '-' + std::to_string(e.end) + '=' + e.text + '\n';
  return content_hash(s);
}

bool carries_hand_edits(const nlohmann::json& entry, std::string_view current_hash) {
  if (current_hash != entry.value("output_hash", "")) return true;
  if (entry.value("conflict", false)) return false;  // untouched markers: an unresolved conflict
  const std::string generated = entry.value("generated", "");
  return !generated.empty() && current_hash != generated;
}

Session::Session(fs::path out, std::string fp, bool force)
    : out_(std::move(out)), fingerprint_(std::move(fp)), force_(force) {
  if (auto text = read_if_exists(out_ / kManifest)) {
    try {
      prev_ = nlohmann::json::parse(*text);
    } catch (const std::exception& e) {
      throw std::runtime_error((out_ / kManifest).string() + ": unreadable manifest (" + e.what() +
                               "); delete it or use --force to start over");
    }
    if (!prev_.is_object()) prev_ = nullptr;
  }
  // An interrupted round: adopt every journaled output that did get written.
  if (auto journal = read_if_exists(out_ / kJournal)) {
    if (prev_.is_null()) prev_ = {{"round", 0}, {"files", nlohmann::json::object()}};
    if (!prev_.contains("files") || !prev_["files"].is_object()) prev_["files"] = nlohmann::json::object();
    std::istringstream in(*journal);
    for (std::string line; std::getline(in, line);) {
      nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("rel") || !j.contains("entry")) continue;  // torn last line
      const std::string rel = j["rel"].get<std::string>();
      auto cur = read_if_exists(out_ / rel);
      if (cur && content_hash(*cur) == j["entry"].value("output_hash", "")) {
        prev_["files"][rel] = j["entry"];
        ++sum_.recovered;
      }
    }
    // A kill inside write_atomically leaves its temporary file behind.
    std::error_code ec;
    std::vector<fs::path> stray;
    for (auto it = fs::recursive_directory_iterator(out_, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->path().filename().string().find(".ferry-tmp-") != std::string::npos) stray.push_back(it->path());
    for (const auto& p : stray) fs::remove(p, ec);
  }
  if (!prev_.is_null() && (!prev_.contains("files") || !prev_["files"].is_object()))
    prev_["files"] = nlohmann::json::object();
}

Session::~Session() = default;

void Session::begin(const std::vector<std::string>& rels) {
  // Which inputs are still there matters only against a last round (deleted and renamed files).
  if (!prev_.is_null()) inputs_.insert(rels.begin(), rels.end());
  if (!prev_.is_null())
    for (const auto& [rel, e] : prev_["files"].items())
      if (!inputs_.count(rel) && e.contains("input_hash"))
        deleted_by_hash_.emplace(e["input_hash"].get<std::string>(), rel);
  std::error_code ec;
  fs::create_directories(out_ / kObjects, ec);
  journal_.open(out_ / kJournal, std::ios::binary | std::ios::app);
  if (!journal_) throw std::runtime_error((out_ / kJournal).string() + ": cannot open for writing");
}

std::optional<Previous> Session::unchanged(const std::string& rel, const std::string& input_hash) {
  if (prev_.is_null() || prev_.value("fingerprint", "") != fingerprint_) return std::nullopt;
  const auto& files = prev_["files"];
  auto f = files.find(rel);
  if (f == files.end() || f->value("input_hash", "") != input_hash) return std::nullopt;
  const std::string gen = f->value("generated", "");
  std::error_code ec;
  if (gen.empty() || !fs::exists(out_ / kObjects / gen, ec)) return std::nullopt;
  auto cur = read_if_exists(out_ / rel);
  if (!cur) return std::nullopt;  // output deleted by hand: regenerate it
  const bool edited = carries_hand_edits(*f, content_hash(*cur));
  if (edited && force_) return std::nullopt;
  Previous p;
  if (f->contains("diagnostics"))
    for (const auto& d : (*f)["diagnostics"]) {
      std::optional<Diagnostic> diag = diagnostic_from_json(rel, d);
      if (!diag) return std::nullopt;  // unknown code: migrate the file again rather than lose it
      p.diagnostics.push_back(std::move(*diag));
    }
  p.conflict = f->value("conflict", false) && !edited;
  if (p.conflict)
    p.diagnostics.push_back({Diag::MergeConflict, Severity::Error, rel, 0, 0,
                             "unresolved conflict markers from an earlier round (<<<<<<< ferry-new)",
                             "keep the right side of each conflict, delete the markers, and run ferry migrate again"});
  std::lock_guard lock(mu_);
  nlohmann::json entry = *f;
  entry["action"] = edited ? "kept" : "unchanged";
  files_.add(rel, entry.dump(1));
  ++sum_.unchanged;
  if (edited) ++sum_.edited_by_hand;
  if (p.conflict) ++sum_.conflicted;
  return p;
}

Commit Session::commit(const std::string& rel, project::FileKind kind, const std::string& input_hash,
                       const std::string& generated, const std::string& kind_action,
                       const std::vector<Diagnostic>& diags) {
  Commit c{kind_action, {}};
  const std::string gen_hash = content_hash(generated);
  const fs::path object = out_ / kObjects / gen_hash;
  std::error_code ec;
  if (!fs::exists(object, ec)) project::write_atomically(object, generated);

  // Which previous output and merge base apply: the file's own, or a renamed file's.
  nlohmann::json prev_entry;
  std::string prev_rel = rel;
  if (!prev_.is_null() && prev_["files"].contains(rel)) {
    prev_entry = prev_["files"][rel];
  } else {
    std::lock_guard lock(mu_);
    auto d = deleted_by_hash_.find(input_hash);
    if (d != deleted_by_hash_.end()) {
      prev_rel = d->second;
      prev_entry = prev_["files"][prev_rel];
      renamed_from_.insert(prev_rel);
      deleted_by_hash_.erase(d);
      c.diagnostics.push_back({Diag::InputRenamed, Severity::Note, rel, 0, 0,
                               "renamed from " + prev_rel + ": its output moves here, with your edits",
                               "check the file; the old output " + prev_rel + " was removed"});
    }
  }

  std::string text = generated;
  bool conflict = false;
  if (!prev_entry.is_null()) {
    auto cur = read_if_exists(out_ / prev_rel);
    if (cur && carries_hand_edits(prev_entry, content_hash(*cur))) {
      {
        std::lock_guard lock(mu_);
        ++sum_.edited_by_hand;
      }
      if (force_) {
        c.diagnostics.push_back({Diag::EditsDiscarded, Severity::Note, rel, 0, 0,
                                 "your edits of this output were discarded (--force)",
                                 "run without --force to merge edits instead"});
      } else {
        auto base = read_if_exists(out_ / kObjects / prev_entry.value("generated", "-"));
        if (!base || looks_binary(*base) || looks_binary(generated) || looks_binary(*cur)) {
          c.diagnostics.push_back(
              {Diag::CannotMerge, Severity::Warning, rel, 0, 0,
               base ? "binary content: your edited output is kept, the new version is not applied"
                    : "the previous generated text is missing from .ferry/objects: your "
                      "edited output is kept, the new version is not applied",
               "compare with a fresh migration (ferry migrate IN -o OTHER) and port the change by hand"});
          std::lock_guard lock(mu_);
          nlohmann::json entry;
          if (prev_rel == rel) entry = prev_entry;  // stays changed: tried again next round
          else if (const std::optional<std::string> had = files_.find(rel)) entry = nlohmann::json::parse(*had);
          entry["action"] = "kept";
          files_.add(rel, entry.dump(1));
          c.action = "kept";
          return c;
        }
        MergeResult m = merge3(*base, generated, *cur);
        text = std::move(m.text);
        if (m.conflicts > 0) {
          conflict = true;
          c.action = "conflict";
          c.diagnostics.push_back(
              {Diag::MergeConflict, Severity::Error, rel, static_cast<std::uint32_t>(m.conflict_lines.front()), 1,
               std::to_string(m.conflicts) + " conflict(s) between the regenerated output and your edits; "
                                             "markers written (<<<<<<< ferry-new ... ======= ... >>>>>>> user-edit)",
               "keep the right side of each conflict, delete the markers, and run ferry migrate again"});
        } else {
          c.action = "merged";
        }
      }
    }
  }

  nlohmann::json d = nlohmann::json::array();
  for (const auto& x : diags) d.push_back(to_json(x, WithFile::No));
  nlohmann::json entry = {{"input_hash", input_hash},   {"output_hash", content_hash(text)}, {"generated", gen_hash},
                          {"action", c.action},         {"kind", project::kind_name(kind)},  {"conflict", conflict},
                          {"diagnostics", std::move(d)}};
  {
    std::lock_guard lock(mu_);
    journal_ << nlohmann::json{{"rel", rel}, {"entry", entry}}.dump() << '\n';
    journal_.flush();
  }
  project::write_atomically(out_ / rel, text);
  std::lock_guard lock(mu_);
  files_.add(rel, entry.dump(1));
  if (c.action == "merged") ++sum_.merged;
  else if (c.action == "conflict") ++sum_.conflicted;
  else if (c.action == "copied") ++sum_.copied;
  else ++sum_.migrated;
  return c;
}

RoundSummary Session::finish(const nlohmann::json& extra, std::vector<Diagnostic>& diagnostics, double seconds) {
  std::error_code ec;
  std::multiset<std::string> before, after;
  if (!prev_.is_null()) {
    for (const auto& [rel, e] : prev_["files"].items()) {
      if (e.contains("diagnostics"))
        for (const auto& d : e["diagnostics"]) before.insert(diag_key(rel, d));
      if (inputs_.count(rel)) continue;
      const fs::path p = out_ / rel;
      auto cur = read_if_exists(p);
      if (renamed_from_.count(rel)) {
        fs::remove(p, ec);
        ++sum_.renamed;
      } else if (!cur) {
        continue;
      } else if (!carries_hand_edits(e, content_hash(*cur))) {
        fs::remove(p, ec);
        ++sum_.removed;
      } else {
        ++sum_.orphaned;
        diagnostics.push_back({Diag::OrphanKept, Severity::Warning, rel, 0, 0,
                               "the input of this output was deleted; your edited output is kept and no "
                               "longer tracked",
                               "delete the output if it is not needed any more"});
      }
    }
  }
  // This round's entries, read back one at a time: their diagnostics (keyed only when there is a
  // last round to compare with) and the generated texts they keep alive.
  std::size_t diagnostics_now = 0;
  std::set<std::string> live;
  files_.for_each([&](const std::string& rel, const std::string& dumped) {
    const nlohmann::json e = nlohmann::json::parse(dumped);
    if (e.contains("diagnostics"))
      for (const auto& d : e["diagnostics"]) {
        ++diagnostics_now;
        if (!before.empty()) after.insert(diag_key(rel, d));
      }
    live.insert(e.value("generated", ""));
  });
  // Opened/closed: per (file, code, message), the surplus of one round over the other.
  if (before.empty()) {
    sum_.opened = diagnostics_now;
  } else {
    std::set<std::string> keys(after.begin(), after.end());
    keys.insert(before.begin(), before.end());
    for (const auto& k : keys) {
      const auto a = after.count(k), b = before.count(k);
      if (a > b) sum_.opened += a - b;
      else sum_.closed += b - a;
    }
  }
  sum_.diagnostics = diagnostics_now;
  sum_.round = (prev_.is_null() ? 0 : prev_.value("round", 0)) + 1;
  sum_.time = now_utc();
  sum_.seconds = seconds;

  nlohmann::json history = load_history(out_);
  nlohmann::json kept = nlohmann::json::array();
  for (auto& r : history)  // a round killed after this point is recorded again under its number
    if (r.value("round", 0) != sum_.round) kept.push_back(std::move(r));
  kept.push_back({{"round", sum_.round},
                  {"time", sum_.time},
                  {"files", files_.size()},
                  {"migrated", sum_.migrated},
                  {"copied", sum_.copied},
                  {"unchanged", sum_.unchanged},
                  {"merged", sum_.merged},
                  {"conflicted", sum_.conflicted},
                  {"removed", sum_.removed},
                  {"orphaned", sum_.orphaned},
                  {"renamed", sum_.renamed},
                  {"edited_by_hand", sum_.edited_by_hand},
                  {"recovered", sum_.recovered},
                  {"diagnostics", sum_.diagnostics},
                  {"opened", sum_.opened},
                  {"closed", sum_.closed},
                  {"seconds", sum_.seconds},
                  {"fingerprint", fingerprint_}});
  project::write_atomically(out_ / kHistory, kept.dump(1));

  nlohmann::json manifest = extra;
  manifest["version"] = 2;
  manifest["round"] = sum_.round;
  manifest["fingerprint"] = fingerprint_;
  // The entries go from the spool into the file, in the place (and the indentation) dump(1) gives
  // the "files" member; it is the only member at that depth with that name, and a dumped string
  // holds no raw newline.
  manifest["files"] = nlohmann::json::object();
  const std::string text = manifest.dump(1);
  const std::string_view member = "\n \"files\": {}";
  const std::size_t at = text.find(member);
  if (at == std::string::npos) throw std::logic_error("manifest: no \"files\" member");
  project::write_atomically(out_ / kManifest, [&](std::ostream& out) {  // the commit point
    out << std::string_view(text).substr(0, at + member.size() - 2);
    files_.write_object(out, 1);
    out << std::string_view(text).substr(at + member.size());
  });
  manifest = nullptr;
  journal_.close();
  fs::remove(out_ / kJournal, ec);

  std::vector<fs::path> dead;
  for (auto it = fs::directory_iterator(out_ / kObjects, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (!live.count(it->path().filename().string())) dead.push_back(it->path());
  for (const auto& p : dead) fs::remove(p, ec);
  return sum_;
}

nlohmann::json load_history(const fs::path& out) {
  if (auto t = read_if_exists(out / kHistory)) {
    nlohmann::json j = nlohmann::json::parse(*t, nullptr, false);
    if (j.is_array()) return j;
  }
  return nlohmann::json::array();
}

}  // namespace ferry::migrate::rounds
