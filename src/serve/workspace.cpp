#include "serve/workspace.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>

#include "analysis/hazards.h"
#include "analysis/wave64_fix.h"
#include "migrate/file_migration.h"
#include "migrate/merge3.h"
#include "migrate/migrate_tree.h"
#include "project/json_file.h"
#include "project/project.h"
#include "report/bundle.h"
#include "report/sarif.h"
#include "rewrite/edit_set.h"
#include "targets/target.h"

namespace fs = std::filesystem;

namespace ferry::serve {
namespace {

bool is_hex_hash(std::string_view s) {
  return !s.empty() && s.size() <= 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Byte offset of the start of each line (index 0 = line 1).
std::vector<std::size_t> line_starts(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
  return starts;
}

std::uint32_t line_of(const std::vector<std::size_t>& starts, std::size_t offset) {
  const auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  return static_cast<std::uint32_t>(it - starts.begin());
}

// The verify units (OUT/.ferry/verify.json) of one file, and the errors that lie in it.
nlohmann::json verify_for(const nlohmann::json& verify, const std::string& rel, const std::string& current_hash) {
  nlohmann::json archs = nlohmann::json::array();
  if (!verify.is_object() || !verify.contains("units")) return archs;
  for (const auto& u : verify["units"]) {
    const bool own = u.value("file", "") == rel;
    nlohmann::json errors = nlohmann::json::array();
    if (u.contains("errors"))
      for (const auto& e : u["errors"]) {
        const nlohmann::json& o = e.contains("original") ? e["original"] : nlohmann::json(nullptr);
        const bool here = o.is_object() && o.value("file", "") == rel;
        if (!here && !(own && !o.is_object())) continue;
        errors.push_back({{"line", here ? o.value("output_line", 0u) : 0u},
                          {"col", here && e.value("file", "") == rel ? e.value("col", 0u) : 0u},
                          {"message", e.value("message", "")},
                          {"class", e.value("class", "")},
                          {"reason", e.value("reason", "")},
                          {"via_include", here && o.value("via_include", false)},
                          {"in", e.value("file", "")},
                          {"unit", u.value("file", "")}});
      }
    if (!own && errors.empty()) continue;
    nlohmann::json stale = nullptr;  // unknown unless serve recorded the source hash it compiled
    if (own && u.contains("source_hash")) stale = u.value("source_hash", "") != current_hash;
    archs.push_back({{"arch", u.value("arch", "")},
                     {"unit", u.value("file", "")},
                     {"own", own},
                     {"status", u.value("status", "")},
                     {"class", u.value("class", "")},
                     {"stale", stale},
                     {"errors", errors}});
  }
  return archs;
}

}  // namespace

std::string_view status_name(FileStatus s) {
  switch (s) {
    case FileStatus::Conflict: return "conflict";
    case FileStatus::Edited: return "edited";
    case FileStatus::Migrated: return "migrated";
    case FileStatus::Unchanged: return "unchanged";
    case FileStatus::Untracked: return "untracked";
    case FileStatus::Missing: return "missing";
    case FileStatus::Symlink: return "symlink";
  }
  return "?";
}

std::vector<std::uint32_t> conflict_marker_lines(std::string_view text) {
  std::vector<std::uint32_t> lines;
  std::uint32_t n = 0;
  bool inside = false;
  auto is_line = [](std::string_view l, std::string_view marker) {  // the marker, then the line end
    if (!starts_with(l, marker)) return false;
    const std::string_view rest = l.substr(marker.size());
    return rest.empty() || rest == "\n" || rest == "\r\n" || rest.front() == ' ';
  };
  for (std::string_view l : split_lines(text)) {
    ++n;
    if (is_line(l, "<<<<<<< ferry-new")) {
      inside = true;
      lines.push_back(n);
    } else if (inside && is_line(l, migrate::kConflictSep) && l.substr(0, 8) != "======= ") {
      lines.push_back(n);
    } else if (inside && is_line(l, ">>>>>>> user-edit")) {
      inside = false;
      lines.push_back(n);
    }
  }
  return lines;
}

// ---- LineMapper ---------------------------------------------------------------------------

LineMapper::LineMapper(std::vector<std::uint32_t> out_to_orig, std::string_view generated, std::string_view current)
    : out_to_orig_(std::move(out_to_orig)) {
  const auto gen = split_lines(generated);
  const auto cur = split_lines(current);
  gen_to_cur_.assign(gen.size(), 0);
  region_start_.assign(gen.size(), 0);
  std::size_t a = 0, b = 0;
  for (const migrate::Hunk& h : migrate::diff_lines(gen, cur)) {
    for (; a < h.a_begin; ++a, ++b) gen_to_cur_[a] = static_cast<std::uint32_t>(b + 1);
    for (; a < h.a_end; ++a)
      region_start_[a] = static_cast<std::uint32_t>(std::min(h.b_begin + 1, std::max<std::size_t>(cur.size(), 1)));
    b = h.b_end;
  }
  for (; a < gen.size(); ++a, ++b) gen_to_cur_[a] = static_cast<std::uint32_t>(b + 1);
}

MappedLine LineMapper::from_generated(std::uint32_t gen_line) const {
  if (gen_line == 0) return {0, true};
  if (gen_to_cur_.empty()) return {gen_line, true};
  const std::size_t i = std::min<std::size_t>(gen_line, gen_to_cur_.size()) - 1;
  if (gen_to_cur_[i]) return {gen_to_cur_[i], gen_line <= gen_to_cur_.size()};
  return {region_start_[i], false};
}

MappedLine LineMapper::from_original(std::uint32_t orig_line) const {
  if (orig_line == 0) return {0, true};
  if (out_to_orig_.empty()) return from_generated(orig_line);
  for (std::size_t i = 0; i < out_to_orig_.size(); ++i)
    if (out_to_orig_[i] == orig_line) return from_generated(static_cast<std::uint32_t>(i + 1));
  for (std::size_t i = 0; i < out_to_orig_.size(); ++i)  // the line went away: the next one kept
    if (out_to_orig_[i] > orig_line) {
      MappedLine m = from_generated(static_cast<std::uint32_t>(i + 1));
      m.exact = false;
      return m;
    }
  MappedLine m = from_generated(static_cast<std::uint32_t>(out_to_orig_.size()));
  m.exact = false;
  return m;
}

// ---- Workspace ----------------------------------------------------------------------------

Workspace::Workspace(WorkspaceOptions options) : opt_(std::move(options)), out_(opt_.out) {
  std::error_code ec;
  if (!fs::is_regular_file(out_.path() / ".ferry" / "manifest.json", ec))
    throw std::invalid_argument(opt_.out.string() + ": no .ferry/manifest.json: not a tree written by ferry migrate");
  for (const auto& [code, doc] : report::parse_diagnostic_docs(opt_.diagnostics_markdown)) anchors_[code] = doc.anchor;
  // Headings naming a range ("### FRY5001–FRY5005 — build files") cover every code in it.
  std::size_t pos = 0;
  const std::string& md = opt_.diagnostics_markdown;
  while ((pos = md.find("\n### FRY", pos)) != std::string::npos) {
    const std::size_t eol = md.find('\n', pos + 1);
    const std::string heading = md.substr(pos + 5, eol == std::string::npos ? std::string::npos : eol - pos - 5);
    pos += 1;
    const std::size_t second = heading.find("FRY", 7);
    if (second == std::string::npos || second > 12 || heading.size() < second + 7) continue;
    const std::string lo = heading.substr(3, 4), hi = heading.substr(second + 3, 4);
    if (!std::all_of(lo.begin(), lo.end(), ::isdigit) || !std::all_of(hi.begin(), hi.end(), ::isdigit)) continue;
    anchors_["range:" + lo + ":" + hi] = report::heading_anchor(heading);
  }
}

std::string Workspace::doc_link(std::string_view code) const {
  if (const auto it = anchors_.find(std::string(code)); it != anchors_.end()) return opt_.docs_url + "#" + it->second;
  if (code.size() == 7 && starts_with(code, "FRY")) {
    const std::string n(code.substr(3));
    for (const auto& [key, anchor] : anchors_)
      if (starts_with(key, "range:") && key.substr(6, 4) <= n && n <= key.substr(11, 4))
        return opt_.docs_url + "#" + anchor;
  }
  return {};
}

nlohmann::json Workspace::manifest() const {
  const fs::path p = out_.path() / ".ferry" / "manifest.json";
  nlohmann::json m = project::read_json_or_null(p);
  if (!m.is_object()) throw std::runtime_error(p.string() + ": unreadable manifest");
  if (!m.contains("files") || !m["files"].is_object()) m["files"] = nlohmann::json::object();
  return m;
}

std::shared_ptr<const SafeRoot> Workspace::input() const {
  const std::string in = manifest().value("input", "");
  std::error_code ec;
  if (in.empty() || !fs::is_directory(in, ec)) return nullptr;
  try {
    return std::make_shared<const SafeRoot>(in);
  } catch (const std::exception&) {
    return nullptr;
  }
}

std::optional<Workspace::Current> Workspace::current(const std::string& rel, const fs::path& abs) const {
  std::error_code ec;
  const auto size = fs::file_size(abs, ec);
  if (ec) return std::nullopt;
  const auto mtime = fs::last_write_time(abs, ec);
  if (ec) return std::nullopt;
  const std::pair<std::uintmax_t, std::int64_t> key{size, mtime.time_since_epoch().count()};
  {
    std::lock_guard lock(cache_mu_);
    if (const auto it = cache_.find(rel); it != cache_.end() && it->second.first == key) return it->second.second;
  }
  Current c;
  try {
    const std::string text = project::read_file(abs);
    c.hash = migrate::content_hash(text);
    c.size = text.size();
    c.conflict_markers = !conflict_marker_lines(text).empty();
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::lock_guard lock(cache_mu_);
  cache_[rel] = {key, c};
  return c;
}

std::string Workspace::generated_text(const nlohmann::json& entry) const {
  const std::string gen = entry.is_object() ? entry.value("generated", "") : "";
  if (!is_hex_hash(gen)) return {};
  try {
    return project::read_file(out_.path() / ".ferry" / "objects" / gen);
  } catch (const std::exception&) {
    return {};
  }
}

nlohmann::json Workspace::project() const {
  const nlohmann::json m = manifest();
  const nlohmann::json verify = project::read_json_or_null(out_.path() / report::kVerifyResultFile);
  const nlohmann::json& mfiles = m["files"];

  // Verify status per file and arch.
  std::map<std::string, nlohmann::json> verify_by_file;
  std::set<std::string> archs;
  if (verify.is_object() && verify.contains("units"))
    for (const auto& u : verify["units"]) {
      const std::string arch = u.value("arch", "");
      archs.insert(arch);
      verify_by_file[u.value("file", "")][arch] = u.value("status", "");
    }

  std::map<std::string, nlohmann::json> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(out_.path(), fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path rel_path = fs::relative(it->path(), out_.path(), ec);
    const std::string rel = rel_path.generic_string();
    if (rel == ".ferry" || starts_with(rel, ".ferry/")) {
      it.disable_recursion_pending();
      continue;
    }
    if (rel.find(".ferry-tmp-") != std::string::npos) continue;
    const fs::file_status st = it->symlink_status(ec);
    if (fs::is_symlink(st)) {
      files[rel] = {{"path", rel}, {"status", status_name(FileStatus::Symlink)}};
      continue;
    }
    if (!fs::is_regular_file(st)) continue;
    nlohmann::json f = {{"path", rel}};
    const auto cur = current(rel, it->path());
    const auto e = mfiles.find(rel);
    FileStatus status = FileStatus::Untracked;
    if (e != mfiles.end()) {
      const bool edited = cur && migrate::rounds::carries_hand_edits(*e, cur->hash);
      const bool conflict = (cur && cur->conflict_markers) || (e->value("conflict", false) && !edited);
      const bool ferry_changed = e->value("generated", "") != e->value("input_hash", "");
      status = conflict        ? FileStatus::Conflict
               : edited        ? FileStatus::Edited
               : ferry_changed ? FileStatus::Migrated
                               : FileStatus::Unchanged;
      f["action"] = e->value("action", "");
      f["kind"] = e->value("kind", "other");
      std::size_t errors = 0, warnings = 0, notes = 0;
      if (e->contains("diagnostics"))
        for (const auto& d : (*e)["diagnostics"]) {
          const std::string sev = d.value("severity", "");
          (sev == "error" ? errors : sev == "note" ? notes : warnings)++;
        }
      f["diagnostics"] = {{"errors", errors}, {"warnings", warnings}, {"notes", notes}};
    } else {
      f["kind"] = project::kind_name(project::classify(rel_path));
    }
    f["status"] = status_name(status);
    f["size"] = cur ? cur->size : 0;
    f["hash"] = cur ? cur->hash : "";
    if (const auto v = verify_by_file.find(rel); v != verify_by_file.end()) f["verify"] = v->second;
    files[rel] = std::move(f);
  }
  for (const auto& [rel, e] : mfiles.items())
    if (!files.count(rel))
      files[rel] = {{"path", rel},
                    {"status", status_name(FileStatus::Missing)},
                    {"action", e.value("action", "")},
                    {"kind", e.value("kind", "other")}};

  std::map<std::string, std::size_t> counts;
  nlohmann::json list = nlohmann::json::array();
  for (auto& [rel, f] : files) {
    ++counts[f["status"].get<std::string>()];
    list.push_back(std::move(f));
  }
  nlohmann::json vsum = nullptr;
  if (verify.is_object() && verify.contains("summary")) {
    const auto& s = verify["summary"];
    vsum = {{"passed", s.value("passed", 0)},
            {"failed", s.value("failed", 0)},
            {"compiles", s.value("compiles", 0)},
            {"by_class", s.value("by_class", nlohmann::json::object())},
            {"archs", archs}};
  }
  return {{"out", out_.path().string()},
          {"input", m.value("input", "")},
          {"input_present", input() != nullptr},
          {"target", m.value("target", "")},
          {"options", m.value("options", nlohmann::json(nullptr))},
          {"round", m.value("round", 0)},
          {"rounds", migrate::rounds::load_history(out_.path())},
          {"counts", counts},
          {"files", list},
          {"verify", vsum},
          {"interrupted_round", fs::exists(out_.path() / ".ferry" / "journal.jsonl", ec)}};
}

std::string Workspace::read(std::string_view rel) const { return out_.read(rel, opt_.max_file_bytes); }

std::string Workspace::read_original(std::string_view rel) const {
  const auto in = input();
  if (!in) throw AccessError(kNotFound, "the input tree of this output is gone");
  return in->read(rel, opt_.max_file_bytes);
}

nlohmann::json Workspace::view(std::string_view rel_in) const {
  const std::string rel = normalise_relative(rel_in);
  const std::string content = read(rel);
  const std::string hash = migrate::content_hash(content);
  const nlohmann::json m = manifest();
  const nlohmann::json entry = m["files"].contains(rel) ? m["files"][rel] : nlohmann::json(nullptr);

  nlohmann::json original = nullptr;
  try {
    original = read_original(rel);
  } catch (const AccessError&) {
  }
  std::vector<std::uint32_t> out_to_orig;
  const nlohmann::json maps = project::read_json_or_null(out_.path() / ".ferry" / "linemaps.json");
  if (maps.is_object() && maps.contains("files") && maps["files"].contains(rel))
    out_to_orig = maps["files"][rel].value("out_to_orig", std::vector<std::uint32_t>{});
  std::string generated = generated_text(entry);
  if (generated.empty()) generated = content;  // nothing to diff against: lines as they are
  const LineMapper mapper(std::move(out_to_orig), generated, content);

  const std::vector<Fix> fx = fixes_for_text(rel, content);
  std::set<std::string> matched;
  nlohmann::json diags = nlohmann::json::array();
  if (entry.is_object() && entry.contains("diagnostics"))
    for (const auto& d : entry["diagnostics"]) {
      const std::uint32_t orig = d.value("line", 0u);
      const MappedLine at = mapper.from_original(orig);
      const std::string code = d.value("code", "");
      nlohmann::json jd = {{"code", code},
                           {"severity", d.value("severity", "warning")},
                           {"message", d.value("message", "")},
                           {"hint", d.value("hint", "")},
                           {"original_line", orig},
                           {"col", d.value("col", 0u)},
                           {"line", at.line},
                           {"exact", at.exact},
                           {"doc", doc_link(code)},
                           {"fix", nullptr}};
      for (const Fix& f : fx)
        if (f.code == code && f.line == at.line && !matched.count(f.id)) {
          jd["fix"] = f.id;
          matched.insert(f.id);
          break;
        }
      diags.push_back(std::move(jd));
    }
  nlohmann::json fixes = nlohmann::json::array();
  for (const Fix& f : fx)
    fixes.push_back({{"id", f.id},
                     {"code", f.code},
                     {"line", f.line},
                     {"message", f.message},
                     {"hint", f.hint},
                     {"preview", f.replacement_preview},
                     {"doc", doc_link(f.code)},
                     {"attached", matched.count(f.id) > 0}});

  const bool edited = entry.is_object() && migrate::rounds::carries_hand_edits(entry, hash);
  const auto markers = conflict_marker_lines(content);
  FileStatus status = FileStatus::Untracked;
  if (entry.is_object())
    status = !markers.empty() || (entry.value("conflict", false) && !edited) ? FileStatus::Conflict
             : edited                                                        ? FileStatus::Edited
             : entry.value("generated", "") != entry.value("input_hash", "") ? FileStatus::Migrated
                                                                             : FileStatus::Unchanged;
  return {
      {"path", rel},
      {"hash", hash},
      {"content", content},
      {"original", original},
      {"status", status_name(status)},
      {"action", entry.is_object() ? entry.value("action", "") : ""},
      {"kind", entry.is_object() ? entry.value("kind", "other") : project::kind_name(project::classify(fs::path(rel)))},
      {"diagnostics", diags},
      {"fixes", fixes},
      {"verify", verify_for(project::read_json_or_null(out_.path() / report::kVerifyResultFile), rel, hash)},
      {"conflict_lines", markers}};
}

SaveResult Workspace::save(std::string_view rel_in, std::string_view content, std::string_view base_hash) {
  const std::string rel = normalise_relative(rel_in);
  std::unique_lock lock(write_mu_, std::chrono::seconds(5));
  if (!lock.owns_lock())
    throw AccessError(kConflict, rel + ": a migrate round is writing the tree; save again when it has finished");
  if (content.size() > opt_.max_file_bytes) throw AccessError(kTooLarge, rel + ": too large to save here");
  out_.replace(
      rel, content, [&](const std::string& cur) { return migrate::content_hash(cur) == base_hash; },
      opt_.max_file_bytes);
  return {migrate::content_hash(content), content.size()};
}

// ---- fixes --------------------------------------------------------------------------------

struct Workspace::FixEdits {
  Fix fix;
  std::vector<analysis::Wave64ByteEdit> edits;
};

struct Workspace::FixCache {
  std::map<std::string, std::pair<std::string, std::vector<FixEdits>>> by_file;  // rel -> (tree state, fixes)
  std::size_t plans = 0;
};

// The fixes are the wave64 planner's (analysis/wave64_fix.h), restricted to one site at a time:
// the same planner, with the same soundness rules, as `ferry analyze --fix` and `ferry migrate
// --to hip` (whose settings it takes: OUT is a migration's output). It reads every C-family file
// of OUT, this one with `text`, as those commands read a tree.
std::vector<Workspace::FixEdits> Workspace::compute_fixes(const std::string& rel, const std::string& text) const {
  std::vector<FixEdits> out;
  if (!opt_.fix_profile) return out;
  if (!project::is_c_family(project::classify(fs::path(rel))) || text.find('\0') != std::string::npos) return out;
  std::vector<std::string> texts;  // the FileMigrations view these
  std::vector<std::string> keys;
  const nlohmann::json m = manifest();
  for (const auto& [other, e] : m["files"].items()) {
    if (other == rel || !project::is_c_family(project::classify(fs::path(other)))) continue;
    try {
      texts.push_back(out_.read(other, opt_.max_file_bytes));
      keys.push_back(other);
    } catch (const std::exception&) {
      // an unreadable neighbour (symlink, binary, too large) does not contribute
    }
  }
  texts.push_back(text);
  keys.push_back(rel);
  // The tree state the plan depends on: every file's name and content.
  std::string state;
  for (std::size_t i = 0; i < texts.size(); ++i) state += keys[i] + '\0' + migrate::content_hash(texts[i]) + '\n';
  {
    std::lock_guard lock(fix_mu_);
    if (!fix_cache_) fix_cache_ = std::make_shared<FixCache>();
    const auto hit = fix_cache_->by_file.find(rel);
    if (hit != fix_cache_->by_file.end() && hit->second.first == state) return hit->second.second;
  }
  out = plan_fixes(rel, text, texts, keys);
  std::lock_guard lock(fix_mu_);
  ++fix_cache_->plans;
  fix_cache_->by_file[rel] = {std::move(state), out};
  return out;
}

std::size_t Workspace::fix_plans() const {
  std::lock_guard lock(fix_mu_);
  return fix_cache_ ? fix_cache_->plans : 0;
}

std::vector<Workspace::FixEdits> Workspace::plan_fixes(const std::string& rel, const std::string& text,
                                                       const std::vector<std::string>& texts,
                                                       const std::vector<std::string>& keys) const {
  std::vector<FixEdits> out;
  const targets::Options topts;
  const auto target = targets::make_target("hip", topts);  // FileMigration's bookkeeping only
  const targets::ProjectContext pctx;
  std::vector<std::unique_ptr<migrate::FileMigration>> files;
  files.reserve(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i)
    files.push_back(std::make_unique<migrate::FileMigration>(keys[i], texts[i], *target, topts, pctx));
  // Constants are shared between files; a warp-width constant is rewritten only when no file of
  // OUT uses it in another role.
  analysis::WarpConstantUses uses;
  std::map<std::string, long long> constants;
  std::set<std::string> conflicting;
  for (const auto& f : files) {
    const analysis::FileFacts facts = analysis::collect_facts(*f);
    analysis::merge_project_constants(facts, constants, conflicting);
    analysis::record_warp_constant_uses(*f, facts, uses);
  }
  std::vector<analysis::FileFacts> facts;
  facts.reserve(files.size());
  std::vector<analysis::Wave64FixInput> inputs;
  for (const auto& f : files) facts.push_back(analysis::collect_facts(*f, &constants));
  for (std::size_t i = 0; i < files.size(); ++i) inputs.push_back({keys[i], files[i].get(), &facts[i]});
  analysis::Wave64FixOptions fopt;
  fopt.site_fixes_of = rel;
  const analysis::Wave64FixPlan plan = analysis::plan_wave64_fixes(inputs, *opt_.fix_profile, uses, fopt);
  const auto mine = plan.files.find(rel);
  if (mine == plan.files.end() || mine->second.site_fixes.empty()) return out;
  // The diagnostics the fixes answer, as `ferry analyze` reports them on this text.
  migrate::FileMigration& fm = *files.back();
  analysis::HazardOptions hopt;
  hopt.profile = opt_.fix_profile;
  hopt.warp_uses = &uses;
  analysis::check_all(fm, hopt, facts.back());
  const auto starts = line_starts(text);
  for (const auto& [anchor, site] : mine->second.site_fixes) {
    const std::uint32_t line = line_of(starts, anchor.second);
    const auto d = std::find_if(fm.diagnostics().begin(), fm.diagnostics().end(),
                                [&](const Diagnostic& x) { return x.code == anchor.first && x.line == line; });
    if (d == fm.diagnostics().end() || site.edits.empty()) continue;
    FixEdits fe;
    fe.fix.code = std::string(to_string(d->code));
    fe.fix.line = line;
    fe.fix.id = fe.fix.code + ":" + std::to_string(line);
    fe.fix.message = d->message;
    fe.fix.hint = site.whole_component
                      ? "fixes its whole component (" + std::to_string(site.edits.size()) +
                            " edits in this file), as 'ferry analyze --fix' and 'ferry migrate --to hip' do"
                      : "fixes this hazard on its own" +
                            (site.left.empty() ? std::string() : "; the rest of its component is left: " + site.left);
    rewrite::EditSet one;
    for (const analysis::Wave64ByteEdit& e : site.edits) one.replace(e.begin, e.end, e.text);
    const std::string after = one.apply(text);
    // The preview: the lines of the fixed text from the first to the last line the fix touches.
    const std::uint32_t first = line_of(starts, site.edits.front().begin);
    std::uint32_t growth = 0;
    for (const analysis::Wave64ByteEdit& e : site.edits)
      growth += static_cast<std::uint32_t>(std::count(e.text.begin(), e.text.end(), '\n'));
    const std::uint32_t last = line_of(starts, site.edits.back().end) + growth;
    const auto after_starts = line_starts(after);
    const std::size_t b = after_starts[std::min<std::size_t>(first, after_starts.size()) - 1];
    const std::size_t e = last < after_starts.size() ? after_starts[last] : after.size();
    fe.fix.replacement_preview = after.substr(b, e > b ? e - b : 0);
    fe.edits = site.edits;
    out.push_back(std::move(fe));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const FixEdits& a, const FixEdits& b) { return a.fix.line < b.fix.line; });
  return out;
}

std::vector<Fix> Workspace::fixes_for_text(const std::string& rel, const std::string& text) const {
  std::vector<Fix> out;
  for (FixEdits& f : compute_fixes(rel, text)) out.push_back(std::move(f.fix));
  return out;
}

std::vector<Fix> Workspace::fixes(std::string_view rel_in) const {
  const std::string rel = normalise_relative(rel_in);
  return fixes_for_text(rel, read(rel));
}

SaveResult Workspace::apply_fix(std::string_view rel_in, std::string_view id, std::string_view base_hash) {
  const std::string rel = normalise_relative(rel_in);
  const std::string text = read(rel);
  if (migrate::content_hash(text) != base_hash)
    throw AccessError(kConflict, rel + ": changed on disk since it was opened; reload it before applying a fix");
  for (const FixEdits& f : compute_fixes(rel, text)) {
    if (f.fix.id != id) continue;
    rewrite::EditSet one;
    for (const analysis::Wave64ByteEdit& e : f.edits) one.replace(e.begin, e.end, e.text);
    return save(rel, one.apply(text), base_hash);
  }
  throw AccessError(kNotFound, rel + ": no safe fix '" + std::string(id) + "' applies to the current text");
}

}  // namespace ferry::serve
