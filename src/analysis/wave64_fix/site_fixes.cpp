// The plan restricted to one site at a time (Wave64FixOptions::site_fixes_of): the workbench's
// apply-fix offers a fix per diagnostic, and this is where the planner decides what each one is.
//
// A hazard of a component the planner fixes gets the component's edits -- the same edits
// `analyze --fix` and `migrate --to hip` make -- when every one of them is in the file (a fix
// applied to one file must not need edits in another). Otherwise only a hazard whose fix stands
// by itself gets one: a warp-width constant every use of which is a warp width (FRY2204) and a
// reduction whose loop variable only feeds the offsets of its shuffles (FRY2205), with the edits
// the planner wrote for that site. Every other hazard keeps its diagnostic and no fix.
#include <algorithm>

#include "analysis/wave64_fix/planner.h"

namespace ferry::analysis::wave64_plan {

namespace {

// A hazard whose own edits are a complete fix of it, whatever the rest of its component.
bool stands_alone(Diag code) { return code == Diag::WarpWidthConstant || code == Diag::ShuffleLoop32; }

// Whether an edit touches a line excluded from rewriting.
bool touches_excluded(const Tokens& v, const Wave64ByteEdit& e) {
  for (std::size_t ci = v.first_at(e.begin); ci < v.size() && v.at(ci) < std::max(e.end, e.begin + 1); ++ci)
    if (v.f.excluded(ci)) return true;
  return false;
}

}  // namespace

Planner::SiteFixRecord::SiteFixRecord(const Planner& p, Wave64FixPlan& plan, const std::vector<Site>& sites,
                                      const Anchors& anchors)
    : p_(p), plan_(plan), sites_(sites), anchors_(anchors) {
  if (p.options_.site_fixes_of.empty()) return;
  for (const auto& [file, key] : anchors)
    if (p.in_[file].key == p.options_.site_fixes_of) file_ = file;
  if (file_ == npos) return;
  for (const auto& [key, fp] : plan.files) before_[key] = fp.edits.size();
}

Planner::SiteFixRecord::~SiteFixRecord() {
  if (file_ == npos) return;
  const std::string& key = p_.in_[file_].key;
  Wave64FilePlan& mine = plan_.files[key];
  // What the component added to the plan, per file.
  bool fixed = false, elsewhere = false;
  std::vector<Wave64ByteEdit> here;
  for (const auto& [k, fp] : plan_.files) {
    const auto b = before_.find(k);
    const std::size_t from = b == before_.end() ? 0 : b->second;
    if (fp.edits.size() <= from) continue;
    if (k == key) here.assign(fp.edits.begin() + static_cast<std::ptrdiff_t>(from), fp.edits.end());
    else elsewhere = true;
  }
  for (const auto& [file, anchor] : anchors_)
    if (plan_.files[p_.in_[file].key].fixed.count(anchor)) fixed = true;
  if (fixed && !elsewhere && !here.empty()) {
    std::sort(here.begin(), here.end(), [](const Wave64ByteEdit& a, const Wave64ByteEdit& b) {
      return std::tie(a.begin, a.end, a.text) < std::tie(b.begin, b.end, b.text);
    });
    here.erase(std::unique(here.begin(), here.end(),
                           [](const Wave64ByteEdit& a, const Wave64ByteEdit& b) {
                             return a.begin == b.begin && a.end == b.end && a.text == b.text;
                           }),
               here.end());
    for (const auto& [file, anchor] : anchors_)
      if (file == file_) mine.site_fixes[anchor] = {here, true, ""};
    return;
  }
  const Tokens v = p_.tok(file_);
  for (const Site& s : sites_) {
    if (!s.anchored || s.file != file_ || !stands_alone(s.code) || s.edits.empty()) continue;
    if (std::any_of(s.edits.begin(), s.edits.end(), [&](const Wave64ByteEdit& e) { return touches_excluded(v, e); }))
      continue;
    std::string left;
    if (const auto u = mine.unfixed.find({s.code, s.anchor}); u != mine.unfixed.end()) left = u->second;
    else if (elsewhere) left = "its component's fix also changes other files ('ferry analyze --fix' makes it whole)";
    mine.site_fixes[{s.code, s.anchor}] = {s.edits, false, std::move(left)};
  }
}

}  // namespace ferry::analysis::wave64_plan
