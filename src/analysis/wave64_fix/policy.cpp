// The plan: components, the order in which the forms are tried, and applying a file's edits.
#include "analysis/wave64_fix/planner.h"

#include <algorithm>
#include <stdexcept>

#include "analysis/facts_spool.h"
#include "analysis/tokens.h"
#include "analysis/wave64_fix/hints.h"

namespace ferry::analysis::wave64_plan {

Wave64FixPlan Planner::run() {
  Wave64FixPlan plan;
  {
    // The heads of the files' facts first: every constant's name (a definition's names are kept
    // only where they name one), and how many functions the project has.
    std::set<std::string_view> constant_names;  // pooled
    std::size_t functions = 0;
    for (std::size_t f = 0; f < in_.size(); ++f) {
      const FactsHead h = head(f);
      functions += h.functions;
      for (const std::string& name : h.constant_names) constant_names.insert(pool_(name));
    }
    release_facts();
    fns_.reserve(functions);
    fn_by_name_.reserve(functions);
    macro_launches_.reserve(in_.size());
    std::vector<FileSummary> summaries(in_.size());
    for (std::size_t f = 0; f < in_.size(); ++f) {
      summarize_file(f, constant_names, summaries[f]);
      release_facts();
    }
    std::stable_sort(fn_by_name_.begin(), fn_by_name_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    collect_includes(summaries);
    collect_constants(summaries);
  }
  link();
  // Which functions a lane-math fix concerns: those with warp operations in reach, lane helpers
  // they call, the host functions that launch them, and every user of a warp-width constant.
  const std::size_t n = fns_.size();
  UnionFind uf(n + consts_.size());
  std::vector<bool> member(n, false);
  std::vector<bool> used_const(consts_.size(), false);
  for (std::size_t id = 0; id < n; ++id) {
    const Fn& fn = fns_[id];
    if (fn.warp) member[id] = true;
    for (std::size_t c : constants_[id]) {
      member[id] = true;
      used_const[c] = true;
      uf.unite(id, n + c);
    }
  }
  // Lane helpers (functions returning a lane id) called from warp code work in its terms.
  std::vector<bool> lane_ctx(n, false);
  for (std::size_t id = 0; id < n; ++id) lane_ctx[id] = fns_[id].warp;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t id = 0; id < n; ++id) {
      if (!lane_ctx[id]) continue;
      for (std::size_t c : callees_[id]) {
        const Fn& callee = fns_[c];
        if (lane_ctx[c] || !callee.lane_helper) continue;
        lane_ctx[c] = true;
        changed = true;
      }
    }
  }
  for (std::size_t id = 0; id < n; ++id) {
    if (!lane_ctx[id]) continue;
    member[id] = true;
    for (std::size_t c : callees_[id])
      if (lane_ctx[c]) uf.unite(id, c);
  }
  for (std::size_t id = 0; id < n; ++id)
    for (std::size_t k : launched_[id])
      if (member[k] && fns_[k].warp) {
        member[id] = true;
        uf.unite(id, k);
      }
  // Mask helpers: functions that return a ballot or a lane bit. (Each loop over functions in id
  // order, which is file order, lets go of a file's facts when it reaches the next file.)
  auto next_file = [&](std::size_t id) {
    if (id + 1 == n || fns_[id + 1].file != fns_[id].file) release_facts();
  };
  for (std::size_t id = 0; id < n; next_file(id), ++id) {
    if (!member[id]) continue;
    const FunctionInfo& fi = info(fns_[id]);
    const Tokens v = tok(fns_[id].file);
    for (std::size_t q = fi.body_open + 1; q < fi.body_close; ++q) {
      if (!v.is(q, "return")) continue;
      for (std::size_t r = q + 1; r < fi.body_close && !v.is(r, ";"); ++r) {
        bool bit = false;
        if (v.is(r, "<<") && v.number(r - 1) && parse_int(v.t(r - 1)) == 1) {
          const std::size_t rl = detail::primary_last(v.f, r + 1);
          bit = rl != npos && (taint_of(v, fi, r + 1, rl) & 3) != 0;
        }
        if (bit || is_one_of(v.t(r), {"__ballot_sync", "__ballot", "__activemask"})) mask_helpers_.insert(fi.name);
      }
    }
  }

  // Lane math in device code no warp operation reaches: harmless, reported as notes.
  for (std::size_t id = 0; id < n; next_file(id), ++id) {
    if (lane_ctx[id] || !fns_[id].device) continue;
    std::vector<Site> would;
    std::vector<Blocker> ignored;
    scan_function(id, true, would, ignored);
    for (const Site& s : would)
      if (s.anchored && s.code != Diag::WarpWidthConstant) {
        plan.files[in_[s.file].key].harmless.insert({s.code, s.anchor});
        ++plan.stats.harmless_sites;
      }
  }
  // A warp-width constant only code without warp operations uses is harmless too.
  std::vector<bool> warp_const(consts_.size(), false);
  for (std::size_t id = 0; id < n; ++id)
    if (lane_ctx[id])
      for (std::size_t c : constants_[id]) warp_const[c] = true;
  for (std::size_t c = 0; c < consts_.size(); ++c)
    if (!warp_const[c]) {
      const Tokens v = tok(consts_[c].file);
      plan.files[in_[consts_[c].file].key].harmless.insert({Diag::WarpWidthConstant, v.at(consts_[c].info.name_ci)});
      ++plan.stats.harmless_sites;
    }
  release_facts();

  std::map<std::size_t, std::vector<std::size_t>> groups;  // root -> function ids
  for (std::size_t id = 0; id < n; ++id)
    if (member[id]) groups[uf.find(id)].push_back(id);
  for (auto& [root, ids] : groups) {
    // The facts read for this component, let go when it is planned (before the next is read).
    struct Release {
      const Planner& p;
      ~Release() { p.release_facts(); }
    } const release{*this};
    std::vector<Site> sites;
    std::vector<Blocker> blockers;
    std::set<std::size_t> kernels;
    for (std::size_t id : ids)
      if (fns_[id].warp) kernels.insert(id);
    bool warp_code = false;
    host_counts_.clear();
    for (std::size_t id : ids) {
      warp_code |= lane_ctx[id];
      if (fns_[id].device || fns_[id].warp) scan_function(id, lane_ctx[id], sites, blockers);
      else scan_host_launcher(id, kernels, blockers);
    }
    if (!warp_code) continue;  // only a constant shared by code without warp operations: harmless
    // WMMA: a fragment belongs to the whole wavefront, so a warp index that picks the warp's
    // tiles must count wavefronts, and then a block of N threads computes the tiles of N / 64
    // warps, not N / 32 (docs/wave64.md, "WMMA"). Neither the warpSize form (it halves the tiles
    // a block covers) nor the row or logical forms (two 32-lane halves cannot hold two
    // fragments) is sound; the component keeps its diagnostics.
    bool wmma = false;
    for (std::size_t id : ids)
      if (fns_[id].wmma_line != 0 && !wmma) {
        wmma = true;
        blockers.push_back({fns_[id].file, fns_[id].wmma_line,
                            "a WMMA fragment belongs to a whole wavefront (64 lanes on gfx9): the tiles a block "
                            "computes are counted in 32-lane warps, and Ferry does not re-tile them"});
      }
    scan_macro_launches(kernels, blockers);
    for (std::size_t c = 0; c < consts_.size(); ++c)
      if (used_const[c] && uf.find(n + c) == root) constant_site(c, sites, blockers);
    // Edits the file cannot take (excluded lines) block the component.
    for (const Site& s : sites) {
      const Tokens v = tok(s.file);
      for (const Wave64ByteEdit& e : s.edits) {
        for (std::size_t ci = v.first_at(e.begin); ci < v.size() && v.at(ci) < std::max(e.end, e.begin + 1); ++ci)
          if (v.f.excluded(ci)) {
            blockers.push_back({s.file, v.line(ci), "a line to change is excluded from rewriting"});
            break;
          }
      }
    }
    Anchors anchors;
    for (const Site& s : sites)
      if (s.anchored) anchors.insert({s.file, {s.code, s.anchor}});
    // The component's warp-width constants are its hazards too, also when their definition
    // could not be rewritten (constant_site then left a blocker and no site).
    for (std::size_t c = 0; c < consts_.size(); ++c)
      if (used_const[c] && warp_const[c] && uf.find(n + c) == root)
        anchors.insert({consts_[c].file, {Diag::WarpWidthConstant, tok(consts_[c].file).at(consts_[c].info.name_ci)}});
    if (anchors.empty()) continue;                            // nothing 32-lane here
    const SiteFixRecord record(*this, plan, sites, anchors);  // site_fixes.cpp
    // Code this fixer already kept as logical 32-lane warps (a second migration of its output):
    // its 32s are right only with the halves, so the warpSize form must not take it.
    for (std::size_t id : ids) {
      if (!lane_ctx[id]) continue;
      const FunctionInfo& fi = info(fns_[id]);
      const Tokens v = tok(fns_[id].file);
      const std::string_view half = options_.cuda_output ? kCudaHalf : kHipHalf;
      for (std::size_t q = fi.body_open + 1; q < fi.body_close; ++q)
        if ((v.number(q) && v.is(q, "32") && recorded(v, q)) ||
            (v.ident(q) && is_one_of(v.t(q), {"__ballot", "__ballot_sync", "__activemask"}) &&
             ballot_half_end(v, q, half) != npos)) {
          blockers.push_back({fns_[id].file, v.line(q), "it is in the logical 32-lane form already"});
          break;
        }
    }
    ++plan.stats.components;
    plan.stats.sites += static_cast<int>(anchors.size());
    if (!blockers.empty()) {
      std::vector<Site> row_edits;
      if (!wmma && row_mode(ids, lane_ctx, kernels, row_edits)) {
        // Rows of 32: the anchors are right as they are once the shuffles stay in their row.
        ++plan.stats.fixed_components;
        plan.stats.fixed_sites += static_cast<int>(anchors.size());
        for (const auto& [file, key] : anchors) plan.files[in_[file].key].fixed.insert(key);
        for (const Site& s : row_edits)
          for (const Wave64ByteEdit& e : s.edits) plan.files[in_[s.file].key].edits.push_back(e);
        continue;
      }
      std::sort(blockers.begin(), blockers.end(),
                [](const Blocker& a, const Blocker& b) { return std::tie(a.file, a.line) < std::tie(b.file, b.line); });
      // With WMMA the fragment is the reason; other blockers follow it.
      const Blocker& b = *std::find_if(blockers.begin(), blockers.end(), [&](const Blocker& x) {
        return !wmma || x.reason.starts_with("a WMMA fragment");
      });
      // WMMA: form (a), a wavefront per CUDA warp with the block doubled
      std::string not_doubled;
      if (wmma) {
        std::vector<Site> wmma_edits;
        not_doubled = wmma_mode(ids, kernels, wmma_edits);
        if (not_doubled.empty()) {
          ++plan.stats.fixed_components;
          plan.stats.fixed_sites += static_cast<int>(anchors.size());
          const std::string how = wave64_hints::wmma_doubled();
          for (const auto& [file, key] : anchors) {
            plan.files[in_[file].key].fixed.insert(key);
            plan.files[in_[file].key].fixed_how.emplace(key, how);
          }
          for (const auto& [file, at] : host_counts_) {
            plan.files[in_[file].key].fixed.insert({Diag::WarpIndex32, at});
            plan.files[in_[file].key].fixed_how.emplace(std::make_pair(Diag::WarpIndex32, at), how);
          }
          for (const Site& s : wmma_edits)
            for (const Wave64ByteEdit& e : s.edits) plan.files[in_[s.file].key].edits.push_back(e);
          continue;
        }
      }
      std::vector<Site> logical_edits;
      const std::string not_logical =
          wmma ? "a WMMA fragment cannot be split into two 32-lane halves" : logical_mode(ids, lane_ctx, logical_edits);
      if (not_logical.empty()) {
        // 32-lane halves: the anchors are right as they are once cross-lane work stays in its half.
        ++plan.stats.fixed_components;
        ++plan.stats.logical_components;
        plan.stats.fixed_sites += static_cast<int>(anchors.size());
        plan.stats.logical_sites += static_cast<int>(anchors.size());
        const std::string how = wave64_hints::logical(where(b.file, b.line) + ": " + b.reason);
        for (const auto& [file, key] : anchors) {
          plan.files[in_[file].key].fixed.insert(key);
          plan.files[in_[file].key].fixed_how.emplace(key, how);
        }
        for (const Site& s : logical_edits) {
          Wave64FilePlan& fp = plan.files[in_[s.file].key];
          if (s.widened_var != UINT32_MAX) fp.halved_vars.insert(s.widened_var);
          if (s.widened_call != UINT32_MAX) fp.halved_calls.insert(s.widened_call);
          for (const Wave64ByteEdit& e : s.edits) fp.edits.push_back(e);
        }
        continue;
      }
      const std::string why =
          wave64_hints::blocked(where(b.file, b.line) + ": " + b.reason, wmma, not_doubled, not_logical);
      plan.blocked.push_back(why);
      for (const auto& [file, key] : anchors) plan.files[in_[file].key].unfixed.emplace(key, why);
      // With WMMA the host's warps-per-block counts are the same hazard (the hint `/ warpSize` is
      // wrong there: host code, and the tiles would not be covered).
      if (wmma)
        for (const auto& [file, at] : host_counts_)
          plan.files[in_[file].key].unfixed.emplace(std::make_pair(Diag::WarpIndex32, at), why);
      continue;
    }
    ++plan.stats.fixed_components;
    plan.stats.fixed_sites += static_cast<int>(anchors.size());
    for (const Site& s : sites) {
      Wave64FilePlan& fp = plan.files[in_[s.file].key];
      if (s.anchored) fp.fixed.insert({s.code, s.anchor});
      if (s.widened_var != UINT32_MAX) fp.widened_vars.insert(s.widened_var);
      if (s.widened_call != UINT32_MAX) fp.widened_calls.insert(s.widened_call);
      for (const Wave64ByteEdit& e : s.edits) fp.edits.push_back(e);
    }
  }
  // Sort and drop duplicates (a token two sites rewrite the same way).
  for (auto& [key, fp] : plan.files) {
    std::sort(fp.edits.begin(), fp.edits.end(), [](const Wave64ByteEdit& a, const Wave64ByteEdit& b) {
      return std::tie(a.begin, a.end, a.text) < std::tie(b.begin, b.end, b.text);
    });
    fp.edits.erase(std::unique(fp.edits.begin(), fp.edits.end(),
                               [](const Wave64ByteEdit& a, const Wave64ByteEdit& b) {
                                 return a.begin == b.begin && a.end == b.end && a.text == b.text;
                               }),
                   fp.edits.end());
    plan.stats.edits += static_cast<int>(fp.edits.size());
  }
  return plan;
}

}  // namespace ferry::analysis::wave64_plan

namespace ferry::analysis {

std::shared_ptr<const FileFacts> wave64_plan::Planner::facts_ptr(std::size_t file) const {
  const Wave64FixInput& in = in_[file];
  if (in.facts) return {std::shared_ptr<const FileFacts>(), in.facts};  // the caller's: not owned
  if (facts_.size() != in_.size()) {
    facts_.resize(in_.size());
    facts_bytes_.resize(in_.size());
  }
  std::shared_ptr<const FileFacts>& slot = facts_[file];
  if (slot) {
    if (facts_order_.back() != file) {
      const auto it = std::find(facts_order_.begin(), facts_order_.end(), file);
      std::rotate(it, it + 1, facts_order_.end());
    }
  } else {
    slot = in.load_facts();
    facts_bytes_[file] = heap_bytes(*slot);
    facts_kept_ += facts_bytes_[file];
    facts_order_.push_back(file);
  }
  return slot;
}

void wave64_plan::Planner::release_facts() const {
  std::size_t drop = 0;
  while (facts_kept_ > kFactsBytes && facts_order_.size() - drop > 1) {
    const std::size_t f = facts_order_[drop++];
    facts_kept_ -= facts_bytes_[f];
    facts_[f].reset();  // a Tokens still reading them keeps them
  }
  facts_order_.erase(facts_order_.begin(), facts_order_.begin() + static_cast<std::ptrdiff_t>(drop));
}

FactsHead wave64_plan::Planner::head(std::size_t file) const {
  const Wave64FixInput& in = in_[file];
  if (!in.facts && in.load_head) return in.load_head();
  return head_of(facts_of(file));
}

wave64_plan::Tokens wave64_plan::Planner::tok(std::size_t file) const {
  std::shared_ptr<const FileFacts> facts = facts_ptr(file);
  const FileFacts& read = *facts;  // before the move below (arguments are evaluated in any order)
  return tokens(file, read, std::move(facts));
}

wave64_plan::Tokens wave64_plan::Planner::tok_without_facts(std::size_t file) const {
  static const FileFacts kNone;
  if (in_[file].facts || (file < facts_.size() && facts_[file])) return tok(file);
  return tokens(file, kNone, nullptr);
}

wave64_plan::Tokens wave64_plan::Planner::tokens(std::size_t file, const FileFacts& facts,
                                                 std::shared_ptr<const FileFacts> hold) const {
  const Wave64FixInput& in = in_[file];
  if (in.file) return Tokens{*in.file, facts, nullptr, std::move(hold)};
  if (loaded_.size() != in_.size()) loaded_.resize(in_.size());
  std::shared_ptr<const FileMigration>& slot = loaded_[file];
  if (slot) {
    const auto it = std::find(loaded_order_.begin(), loaded_order_.end(), file);
    std::rotate(it, it + 1, loaded_order_.end());
  } else {
    // What the loop below would drop after the load, dropped before it, so that a large file and
    // the next one are not held at once: a file kept past kLoadedBytes by itself cannot stay
    // beside the new one, nor can any file read before it (least recently read go first).
    for (std::size_t i = loaded_order_.size(); i > 0; --i) {
      if (loaded_[loaded_order_[i - 1]]->memory_bytes() <= kLoadedBytes) continue;
      for (std::size_t j = 0; j < i; ++j) loaded_[loaded_order_[j]].reset();  // a Tokens still reading one keeps it
      loaded_order_.erase(loaded_order_.begin(), loaded_order_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
    slot = in.load();
    loaded_order_.push_back(file);
    std::size_t bytes = 0;
    for (const std::size_t f : loaded_order_) bytes += loaded_[f]->memory_bytes();
    while (bytes > kLoadedBytes && loaded_order_.size() > 1) {
      std::shared_ptr<const FileMigration>& old = loaded_[loaded_order_.front()];
      bytes -= old->memory_bytes();
      old.reset();  // a Tokens still reading it keeps it (Tokens::hold)
      loaded_order_.erase(loaded_order_.begin());
    }
  }
  return Tokens{*slot, facts, slot, std::move(hold)};
}

Wave64FixPlan plan_wave64_fixes(const std::vector<Wave64FixInput>& files, const Profile& profile,
                                const WarpConstantUses& uses, const Wave64FixOptions& options) {
  wave64_plan::Planner p(files, profile, uses, options);
  return p.run();
}

void HandedFacts::put(std::string path, FileFacts facts) {
  std::lock_guard lock(mu_);
  facts_.insert_or_assign(std::move(path), Entry{std::move(facts)});
}

void HandedFacts::put(std::string path, std::shared_ptr<const FactsSpool> spool, std::size_t id) {
  std::lock_guard lock(mu_);
  if (spool_ && spool_ != spool) throw std::logic_error("HandedFacts: facts of two spools");
  spool_ = std::move(spool);
  facts_.insert_or_assign(std::move(path), Entry{std::nullopt, id});
}

std::optional<FileFacts> HandedFacts::take(std::string_view path) {
  std::lock_guard lock(mu_);
  auto it = facts_.find(path);
  if (it == facts_.end())
    for (it = facts_.begin(); it != facts_.end(); ++it) {
      const std::string& key = it->first;
      if (path.size() > key.size() && path.ends_with(key) && path[path.size() - key.size() - 1] == '/') break;
    }
  if (it == facts_.end()) return std::nullopt;
  std::optional<FileFacts> out;
  if (it->second.facts) out = std::move(it->second.facts);
  else out = spool_->get(it->second.id);
  facts_.erase(it);
  return out;
}

bool apply_wave64_fixes(migrate::FileMigration& file, const Wave64FilePlan& plan) {
  for (const Wave64ByteEdit& e : plan.edits)
    if (file.edits().overlaps(e.begin, e.end)) return false;
  for (std::size_t i = 0; i + 1 < plan.edits.size(); ++i)
    if (plan.edits[i].end > plan.edits[i + 1].begin) return false;
  for (const Wave64ByteEdit& e : plan.edits) file.replace_bytes(e.begin, e.end, e.text);
  return true;
}

}  // namespace ferry::analysis
