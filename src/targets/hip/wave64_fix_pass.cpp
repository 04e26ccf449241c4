// The wave64 lane-math fixes inside `ferry migrate --to hip` (analysis/wave64_fix.h): planned once
// for the project by a pre-pass (wave64_scan), applied per file as the first pass, reported through the
// hazard diagnostics (fixed ones as notes, the others with the reason they were left).
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/facts_spool.h"
#include "analysis/hazards.h"
#include "analysis/profile.h"
#include "analysis/wave64_fix.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {

namespace {

// Whether a code token of `v` names a constant of the project (`project_constants`) that the file
// does not define itself: only then can collect_facts with the project's constants differ from the
// file's own facts (FileFacts::project_constants is read by name, after the file's own constants).
// Constant names are identifiers: asked per constant in the file's name index, or per distinct
// name of the file when the project has more constants than the file has names.
template <class Defines>  // bool(std::string_view name): the file defines constant `name`
bool mentions_other_constants(const lex::CodeView& v, const Defines& own,
                              const std::map<std::string, long long>& project_constants) {
  if (project_constants.size() <= v.name_count()) {
    for (const auto& [name, value] : project_constants)
      if (!own(name) && v.mentions(name)) return true;
    return false;
  }
  std::vector<bool> seen(v.name_count(), false);
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    if (!v.is_identifier(ci) || seen[v.name_id(ci)]) continue;
    seen[v.name_id(ci)] = true;
    const std::string name(v.text(ci));
    if (project_constants.count(name) && !own(name)) return true;
  }
  return false;
}

}  // namespace

namespace {

// A FileMigration over a text it owns (a file read again for the planner).
std::shared_ptr<const migrate::FileMigration> lex_owned(std::string path, std::string text, const Target& target,
                                                        const Options& options, const ProjectContext& ctx) {
  struct Owned {
    std::string text;
    std::optional<migrate::FileMigration> file;
  };
  auto owned = std::make_shared<Owned>();
  owned->text = std::move(text);
  owned->file.emplace(std::move(path), owned->text, target, options, ctx);
  return {owned, &*owned->file};
}

class Wave64Scan final : public ProjectScan {
 public:
  Wave64Scan(const Target& target, const Options& options)
      : target_(target), options_(options), profile_(analysis::find_profile("gfx906")) {}

  // Each file's facts without the project's constants, spooled, and the project's constants. The
  // last file's facts wait unpacked (last_): a single file's (`ferry migrate FILE`) are never
  // packed, unpacked for the planner or unpacked again for its hazard checks.
  void file(const SourceView&, const migrate::FileMigration& view, ProjectContext&) override {
    if (!profile_) return;
    analysis::FileFacts facts = analysis::collect_facts(view);
    analysis::merge_project_constants(facts, project_constants_, conflicting_);
    if (last_) spool_->put(*last_);
    last_ = std::move(facts);
  }
  void finish(const std::vector<SourceView>& files, ProjectContext& ctx) override;

 private:
  const Target& target_;
  const Options& options_;
  const analysis::Profile* profile_;
  // Per file but the last, in order (ids 0, 1, ...): its facts, out of memory until read.
  std::shared_ptr<analysis::FactsSpool> spool_ = std::make_shared<analysis::FactsSpool>();
  std::optional<analysis::FileFacts> last_;  // the last file's
  std::map<std::string, long long> project_constants_;
  std::set<std::string> conflicting_;
};

void Wave64Scan::finish(const std::vector<SourceView>& files, ProjectContext& ctx) {
  if (!profile_ || !last_ || spool_->size() + 1 != files.size()) return;
  static const analysis::FileFacts kNoFacts;
  const std::size_t last = files.size() - 1;  // last_'s file
  // A file the caller lexed (one file: `ferry migrate FILE`) lends its tokens to the planner's
  // FileMigration, held throughout; at the end they go back to the file's slot (SourceView::lexed),
  // whence its own migration takes them over: it is lexed once. The other files (a tree) are
  // lexed (and read, SourceView::read) when read and dropped after: the planner keeps their facts
  // and lexes a file again when it reads its tokens (Wave64FixInput::load), so planning never
  // holds the whole tree's tokens or texts.
  std::vector<std::unique_ptr<migrate::FileMigration>> held(files.size());
  auto lex = [&](std::size_t i) -> std::shared_ptr<const migrate::FileMigration> {
    if (files[i].read) return lex_owned(files[i].path, files[i].read(), target_, options_, ctx);
    return std::make_shared<const migrate::FileMigration>(files[i].path, files[i].text, target_, options_, ctx);
  };
  for (std::size_t i = 0; i < files.size(); ++i)
    if (files[i].lexed && *files[i].lexed)
      held[i] =
          std::make_unique<migrate::FileMigration>(files[i].path, std::move(**files[i].lexed), target_, options_, ctx);
  analysis::WarpConstantUses uses;
  std::vector<analysis::Wave64FixInput> inputs;
  std::vector<bool> own_only(files.size(), false);  // facts[i] looks up no other file's constant
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::shared_ptr<const migrate::FileMigration> own = held[i] ? nullptr : lex(i);
    const migrate::FileMigration& m = held[i] ? *held[i] : *own;
    // The spooled facts (without the project's constants) are read for their constants' names alone.
    bool other;
    if (i == last) {
      other = mentions_other_constants(
          m, [&](std::string_view n) { return last_->constants.count(std::string(n)) != 0; }, project_constants_);
    } else {
      const analysis::FactsHead own = spool_->head(i);
      other = mentions_other_constants(
          m, [&](std::string_view n) { return own.defines(n); }, project_constants_);
    }
    if (!other) own_only[i] = true;  // the facts can only differ by what a lookup of another file's constant finds
    else if (i == last) last_ = analysis::collect_facts(m, &project_constants_);
    else spool_->replace(i, analysis::collect_facts(m, &project_constants_));
    analysis::record_warp_constant_uses(m, kNoFacts, uses);  // the uses are tokens: facts are not read
  }
  // The planner reads each file's facts (with the project's constants) when it reads the file.
  auto load_facts = [this](std::size_t i) {
    auto facts = std::make_shared<analysis::FileFacts>(spool_->get(i));
    facts->project_constants = &project_constants_;
    return std::shared_ptr<const analysis::FileFacts>(std::move(facts));
  };
  last_->project_constants = &project_constants_;
  for (std::size_t i = 0; i < files.size(); ++i)
    inputs.push_back({files[i].path, held[i].get(), i == last ? &*last_ : nullptr, [&lex, i] { return lex(i); },
                      files[i].text, files[i].read, [&load_facts, i] { return load_facts(i); },
                      [this, i] { return spool_->head(i); }});
  analysis::Wave64FixPlan plan = analysis::plan_wave64_fixes(inputs, *profile_, uses);
  // Facts without another file's constant are what the hazard checks compute (hazard_pass):
  // handed on (read from the spool when taken; the last file's moved), they are not computed again.
  for (std::size_t i = 0; i < last; ++i)
    if (own_only[i]) plan.hazard_facts->put(files[i].path, spool_, i);
  last_->project_constants = nullptr;
  if (own_only[last]) plan.hazard_facts->put(files[last].path, std::move(*last_));
  last_.reset();
  ctx.wave64_fixes = std::make_shared<const analysis::Wave64FixPlan>(std::move(plan));
  for (std::size_t i = 0; i < files.size(); ++i)
    if (held[i]) files[i].lexed->emplace(std::move(*held[i]).release_view());
}

}  // namespace

std::unique_ptr<ProjectScan> wave64_scan(const Target& target, const Options& options) {
  return std::make_unique<Wave64Scan>(target, options);
}

namespace {

// The entry of `file` in one of the plan's per-file maps.
template <class Map>
const typename Map::mapped_type* entry_for(const Map& files, const migrate::FileMigration& file) {
  const std::string path(file.path());
  if (const auto it = files.find(path); it != files.end()) return &it->second;
  // A single file is planned under its name and migrated under the path given.
  for (const auto& [key, value] : files)
    if (path.size() > key.size() && path.ends_with(key) && path[path.size() - key.size() - 1] == '/') return &value;
  return nullptr;
}

const analysis::Wave64FilePlan* plan_for(const migrate::FileMigration& file) {
  const auto& plan = file.project().wave64_fixes;
  return plan ? entry_for(plan->files, file) : nullptr;
}

}  // namespace

const analysis::Wave64FilePlan* wave64_fix_pass(migrate::FileMigration& file) {
  const analysis::Wave64FilePlan* fp = plan_for(file);
  if (!fp) return nullptr;
  if (!analysis::apply_wave64_fixes(file, *fp)) return nullptr;
  if (!fp->edits.empty()) file.count_converted("device");
  return fp;
}

std::optional<analysis::FileFacts> take_planned_facts(const migrate::FileMigration& file) {
  const auto& plan = file.project().wave64_fixes;
  if (!plan || !plan->hazard_facts) return std::nullopt;
  return plan->hazard_facts->take(file.path());
}

void mark_widened_ballots(migrate::FileMigration& file, const analysis::Wave64FilePlan& plan) {
  if (plan.widened_vars.empty() && plan.widened_calls.empty() && plan.halved_vars.empty() && plan.halved_calls.empty())
    return;
  // The code token that starts at byte `at`, or code_size() when none does.
  auto token_at = [&](std::uint32_t at) {
    std::size_t lo = 0, hi = file.code_size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (file.code(mid).begin < at) lo = mid + 1;
      else hi = mid;
    }
    return lo < file.code_size() && file.code(lo).begin == at ? lo : file.code_size();
  };
  std::set<std::pair<std::uint32_t, std::uint32_t>> vars, calls, halved;  // (line, col)
  auto mark = [&](const std::set<std::uint32_t>& offsets, std::set<std::pair<std::uint32_t, std::uint32_t>>& out) {
    for (const std::uint32_t at : offsets)
      if (const std::size_t ci = token_at(at); ci < file.code_size())
        out.insert({file.code(ci).line, file.code(ci).col});
  };
  mark(plan.widened_vars, vars);
  mark(plan.widened_calls, calls);
  mark(plan.halved_vars, halved);
  mark(plan.halved_calls, halved);
  std::set<std::pair<std::uint32_t, std::uint32_t>> reported;
  for (Diagnostic& d : file.diagnostics()) {
    if ((d.code == Diag::BallotStored32 || d.code == Diag::BallotBitFunction32) && halved.count({d.line, d.col})) {
      d.severity = Severity::Note;
      d.hint =
          "fixed (wave64 fix): the ballot is its own 32-lane half of the wavefront (logical 32-lane warps), so 32 bits "
          "hold it";
      continue;
    }
    const bool var = d.code == Diag::BallotStored32 && vars.count({d.line, d.col});
    const bool call = d.code == Diag::BallotBitFunction32 && calls.count({d.line, d.col});
    if (!var && !call) continue;
    if (call) reported.insert({d.line, d.col});
    d.severity = Severity::Note;
    d.hint = var ? "fixed (wave64 fix): declared unsigned long long, with the 64-bit bit functions"
                 : "fixed (wave64 fix): the 64-bit form counts every lane of the wavefront";
  }
  // The warp pass does not look at a call the fixer already rewrote: say what happened there.
  for (const std::uint32_t at : plan.widened_calls) {  // offsets, ascending: the code token starting there
    const std::size_t ci = token_at(at);
    if (ci == file.code_size()) continue;
    const lex::Token& t = file.code(ci);
    if (reported.count({t.line, t.col})) continue;
    file.diag_at_line(Diag::BallotBitFunction32, Severity::Note, t.line, t.col,
                      "'" + std::string(file.text(ci)) +
                          "' of a lane mask looked at the low 32 bits only; a wavefront "
                          "on AMD has 64 lanes",
                      "fixed (wave64 fix): the 64-bit form counts every lane of the wavefront");
  }
}

}  // namespace ferry::targets::hip
