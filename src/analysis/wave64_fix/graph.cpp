// The project as the planner sees it: translation units, functions, warp-width constants, links.
#include "analysis/wave64_fix/planner.h"

#include <algorithm>
#include <filesystem>

#include "analysis/names.h"
#include "targets/hip/ptx_idioms.h"

namespace ferry::analysis::wave64_plan {

// A name called or launched in `file` means a definition the compiler sees there: in the file,
// else in what it includes, else (a header's call) in the files that include it. Only when none
// of those defines it can the definition be in another translation unit (a kernel launched
// through a declaration), and then every definition elsewhere counts. Corpora of standalone
// programs define the same helper and constant names in many .cu files; without this order they
// all become one component, and one unfixable file blocks every other.
int Planner::tu_rank(std::size_t file, std::size_t other) const {
  if (other == file) return 0;
  const auto in = [other](const std::vector<std::uint32_t>& files) {
    return std::binary_search(files.begin(), files.end(), other);
  };
  if (in(includes_[file])) return 1;
  if (in(includers_[file])) return 2;
  return 3;
}

std::vector<std::size_t> Planner::resolve_function(std::size_t file, std::string_view name) const {
  std::vector<std::size_t> best;
  int best_rank = 4;
  for (const auto& [n, id] : functions_named(name)) {
    const int r = tu_rank(file, fns_[id].file);
    if (r < best_rank) best.clear(), best_rank = r;
    if (r == best_rank) best.push_back(id);
  }
  return best;
}

std::vector<std::size_t> Planner::resolve_constant(std::size_t file, std::string_view name) const {
  std::vector<std::size_t> best;
  int best_rank = 4;
  const auto [lo, hi] = const_by_name_.equal_range(std::string(name));
  for (auto it = lo; it != hi; ++it) {
    const int r = tu_rank(file, consts_[it->second].file);
    if (r == 3 && !is_header_key(in_[consts_[it->second].file].key)) continue;
    if (r < best_rank) best.clear(), best_rank = r;
    if (r == best_rank) best.push_back(it->second);
  }
  if (!best.empty()) return best;
  const auto d = derived_.find(std::string(name));
  if (d == derived_.end()) return {};
  for (const auto& [f, roots] : d->second) {
    const int r = tu_rank(file, f);
    if (r == 3 && !is_header_key(in_[f].key)) continue;
    if (r < best_rank) best.clear(), best_rank = r;
    if (r == best_rank) best.insert(best.end(), roots.begin(), roots.end());
  }
  return best;
}

void Planner::summarize_file(std::size_t f, const std::set<std::string_view>& constant_names, FileSummary& out) {
  const Tokens v = tok(f);
  // A header name is the lexer's only after `include`, `include_next` or `import` in its directive
  // (lex::Kind::HeaderName), one per such word at most: the first after each occurrence of one of
  // them, before the next occurrence, in the same directive.
  const std::vector<std::uint32_t> words = v.f.occurrences({"include", "include_next", "import"});
  for (std::size_t w = 0; w < words.size(); ++w) {
    const std::size_t end = w + 1 < words.size() ? words[w + 1] : v.size();
    for (std::size_t ci = words[w] + 1; ci < end && v.f.in_directive(ci); ++ci) {
      if (v.f.code(ci).kind != lex::Kind::HeaderName) continue;
      const std::string_view h = v.t(ci);
      if (h.size() >= 3 && h.front() == '"') out.quoted_includes.push_back(pool_(h.substr(1, h.size() - 2)));
      break;
    }
  }
  std::vector<std::string_view> names;
  for (const auto& [name, c] : v.facts.constants) {
    const std::string_view pooled = *constant_names.find(name);
    for (std::size_t j = c.first_ci; j <= c.last_ci && j < v.size(); ++j)
      if (v.ident(j) && v.t(j) != name)
        if (const auto used = constant_names.find(v.t(j)); used != constant_names.end()) names.push_back(*used);
    if (!names.empty()) out.definition_names.emplace_back(pooled, std::move(names));
    names.clear();
    if (c.value == 32 && is_warp_width_name(name)) out.warp_constants.emplace_back(pooled, c);
  }
  collect_functions(f, v);
}

void Planner::collect_includes(const std::vector<FileSummary>& summaries) {
  namespace fs = std::filesystem;
  std::map<std::string, std::size_t> by_key;
  std::multimap<std::string, std::size_t> by_name;  // file name -> files
  for (std::size_t f = 0; f < in_.size(); ++f) {
    const fs::path k = fs::path(in_[f].key).lexically_normal();
    by_key.emplace(k.generic_string(), f);
    by_name.emplace(k.filename().string(), f);
  }
  std::vector<std::set<std::size_t>> direct(in_.size());
  for (std::size_t f = 0; f < in_.size(); ++f) {
    const fs::path dir = fs::path(in_[f].key).lexically_normal().parent_path();
    for (const std::string_view quoted : summaries[f].quoted_includes) {
      const fs::path inc = fs::path(quoted).lexically_normal();
      // next to the file, else under the project root, else every project file with that path
      // ending (found through an -I folder: "utils.h" from kernels/flash-attn/utils/)
      std::vector<std::size_t> hits;
      for (const fs::path& c : {(dir / inc).lexically_normal(), inc})
        if (const auto it = by_key.find(c.generic_string()); it != by_key.end()) {
          hits.push_back(it->second);
          break;
        }
      if (hits.empty()) {
        const std::string tail = "/" + inc.generic_string();
        const auto [lo, hi] = by_name.equal_range(inc.filename().string());
        for (auto it = lo; it != hi; ++it) {
          const std::string k = "/" + fs::path(in_[it->second].key).lexically_normal().generic_string();
          if (k.size() >= tail.size() && k.compare(k.size() - tail.size(), tail.size(), tail) == 0)
            hits.push_back(it->second);
        }
      }
      for (std::size_t t : hits)
        if (t != f) direct[f].insert(t);
    }
  }
  includes_.assign(in_.size(), {});
  includers_.assign(in_.size(), {});
  std::set<std::size_t> reached;
  for (std::size_t f = 0; f < in_.size(); ++f) {
    reached.clear();
    std::vector<std::size_t> todo(direct[f].begin(), direct[f].end());
    while (!todo.empty()) {
      const std::size_t t = todo.back();
      todo.pop_back();
      if (t == f || !reached.insert(t).second) continue;
      for (std::size_t n : direct[t]) todo.push_back(n);
    }
    includes_[f].assign(reached.begin(), reached.end());
    for (std::size_t t : reached) includers_[t].push_back(static_cast<std::uint32_t>(f));  // f ascending: sorted
  }
  for (std::vector<std::uint32_t>& in : includers_) in.shrink_to_fit();
}

void Planner::collect_functions(std::size_t f, const Tokens& v) {
  {
    const FileFacts& facts = v.facts;
    // Per distinct name of the file (its name index), what the word tests below say, asked once:
    // 1 a warp operation or warpSize, 2 a tile member that moves data, 4 a WMMA call; 0 none.
    constexpr std::uint8_t kWarpWord = 1, kTileMember = 2, kWmmaWord = 4, kUnknown = 0xff;
    // Indexed by name_ids(), which gives a token that is no identifier the id 0 too: a walk over
    // every token skips most by the table alone, and tests the kind only where the name counts.
    const std::size_t name_count = v.f.name_count();
    const std::uint32_t* const ids = v.f.name_ids();
    std::vector<std::uint8_t> words(std::max<std::size_t>(name_count, 1), kUnknown);
    auto word = [&](std::size_t ci) {
      const std::uint32_t id = ids[ci];
      std::uint8_t& w = words[id];
      if (w == kUnknown) {
        const std::string_view s = id < name_count ? v.f.name_text(id) : std::string_view();
        w = static_cast<std::uint8_t>(((is_warp_op(s) || s == "warpSize") ? kWarpWord : 0) |
                                      (is_tile_warp_member(s) ? kTileMember : 0) | (is_wmma_op(s) ? kWmmaWord : 0));
      }
      return w;
    };
    const std::vector<std::uint32_t> asm_words = v.f.occurrences({"asm", "__asm__", "__asm"});
    for (std::size_t i = 0; i < facts.functions.size(); ++i) {
      Fn fn;
      fn.file = f;
      fn.index = i;
      const FunctionInfo& fi = facts.functions[i];
      fn.name_ci = static_cast<std::uint32_t>(fi.name_ci);
      fn.body_open = static_cast<std::uint32_t>(fi.body_open);
      fn.body_close = static_cast<std::uint32_t>(fi.body_close);
      fn.lane_helper = facts.lane_helpers.count(fi.name) != 0;
      fn.device = fi.is_kernel || declared_device(v, fi.name_ci);
      for (std::size_t ci = fi.body_open + 1; ci < fi.body_close; ++ci) {
        const std::uint8_t w = word(ci);
        if (w == 0 || !v.ident(ci)) continue;
        // warpSize counts too: values derived from it grow to 63 on wave64, where 32-lane
        // structures beside them no longer fit
        if (v.member(ci) ? (w & kTileMember) && v.is(ci + 1, "(") : (w & kWarpWord) != 0) fn.direct_warp = true;
        if (!v.member(ci) && (w & kWmmaWord) && v.is(ci + 1, "(")) {
          fn.direct_warp = true;
          if (fn.wmma_line == 0) fn.wmma_line = v.line(ci);
        }
      }
      // Inline PTX that reads the lane id or a lane mask (`mov.u32 %0, %%lanemask_lt;`) is warp
      // code as much as what the hip target writes for it (`m = (1ull << __lane_id()) - 1`): a
      // second migration reads the rewrite, and both must plan alike (a fixed point).
      if (!fn.direct_warp && !options_.cuda_output)
        for (const std::uint32_t ci : detail::occurrences_in(asm_words, fi.body_open + 1, fi.body_close)) {
          if (fn.direct_warp) break;
          const std::size_t open = targets::hip::asm_open(v.f, ci);
          if (open == npos || v.partner(open) == npos) continue;
          const auto st = targets::hip::parse_asm(v.f, open, v.partner(open));
          if (!st) continue;
          const targets::hip::PtxVerdict verdict = targets::hip::rewrite_ptx(*st);
          fn.direct_warp = verdict.rewrite &&
                           (verdict.rewrite->idiom.starts_with("%lanemask_") || verdict.rewrite->idiom == "%laneid");
        }
      fn_by_name_.emplace_back(pool_(fi.name), static_cast<std::uint32_t>(fns_.size()));
      fns_.push_back(std::move(fn));
    }
    std::vector<std::size_t>& launches = macro_launches_.emplace_back();
    for (const std::uint32_t ci : launch_opens(v))
      if (v.f.code(ci).in_directive) launches.push_back(ci);
    // Macros that hide lane math: `#define LANE (threadIdx.x & 31)`. Each starts at an occurrence
    // of `define` (the `#` before it); a body ends before the next `#`, so none holds another.
    for (const std::uint32_t define_ci : v.f.occurrences("define")) {
      if (define_ci == 0) continue;
      const std::size_t ci = define_ci - 1;
      if (!(ci + 2 < v.size() && v.f.code(ci).in_directive && v.is(ci, "#") && v.ident(ci + 2))) continue;
      const std::uint32_t line = v.line(ci);
      bool thread = false, lane = false;
      std::size_t j = ci + 3;
      for (; j < v.size() && v.f.code(j).in_directive && v.line(j) >= line && !(v.is(j, "#") && j > ci); ++j) {
        thread |= v.is(j, "threadIdx") || v.is(j, "__lane_id");
        if (v.number(j)) {
          const auto val = parse_int(v.t(j));
          if ((val == 31 && v.is(j - 1, "&")) || (val == 32 && (v.is(j - 1, "%") || v.is(j - 1, "/"))) ||
              (val == 5 && v.is(j - 1, ">>")))
            lane = true;
        }
      }
      const std::string_view macro = pool_(v.t(ci + 2));
      const bool warp_op_named = is_warp_op(v.t(ci + 2));
      if (thread && lane) lane_macros_.insert(macro);
      if (warp_op_named && v.is(ci + 3, "(") && v.at(ci + 3) == v.end(ci + 2) && v.partner(ci + 3) != npos &&
          v.partner(ci + 3) < j)
        intrinsic_macros_[macro].push_back({f, v.partner(ci + 3) + 1, j, nullptr, inside_conditional(v, ci)});
      for (std::size_t q = ci + 3; q < j; ++q) {
        if (!v.ident(q)) continue;
        if (is_one_of(v.t(q), {"asm", "__asm__", "__asm"})) asm_macros_.insert(macro);
        if (is_one_of(v.t(q), {"threadIdx", "blockDim", "printf", "__lane_id"}) || v.t(q).starts_with("atomic") ||
            v.t(q).starts_with("__atomic") || v.t(q).starts_with("__hip_atomic"))
          clone_unsafe_macros_.insert(macro);
        if (v.is(q + 1, "(") && !v.member(q)) macro_calls_[macro].insert(pool_(v.t(q)));
        // A macro named like a warp intrinsic (`#define __any_sync(m, p) __any(p)`, a compat shim)
        // hides nothing: its uses are calls of that intrinsic, which the fixer sees, and the forms
        // rewrite its body where the call reaches it (intrinsic_macros_).
        if (warp_op_named) continue;
        if (is_warp_op(v.t(q)) || v.is(q, "warpSize") || (v.member(q) && is_tile_warp_member(v.t(q))))
          warp_macros_.insert(macro);
      }
    }
  }
}

void Planner::collect_constants(const std::vector<FileSummary>& summaries) {
  for (std::size_t f = 0; f < in_.size(); ++f)
    for (const auto& [name, c] : summaries[f].warp_constants) {
      const_by_name_.emplace(std::string(name), consts_.size());
      consts_.push_back({f, std::string(name), c});
    }
  // Constants and macros defined from a warp-width constant follow it.
  for (std::size_t f = 0; f < in_.size(); ++f) {
    for (const auto& [name, names] : summaries[f].definition_names) {
      if (const_by_name_.count(std::string(name))) continue;
      std::vector<std::size_t> roots;
      for (const std::string_view used : names)
        for (std::size_t r : resolve_constant(f, used)) roots.push_back(r);
      if (!roots.empty()) derived_[std::string(name)][f] = roots;
    }
  }
}

void Planner::link() {
  // Per distinct name of the file being read (its name index): whether the name can link to
  // anything (a function, a warp-width constant or a name derived from one, a lane macro), asked
  // once; the others are skipped. Functions are in file order, so the table is per run of a file.
  std::size_t names_of = npos;
  // Indexed by name_ids() (0 for a token that is no identifier too): 1 where the name may link
  // or is hipLaunchKernelGGL, 0 where not, -1 not asked yet. Most tokens are skipped by it alone.
  std::vector<signed char> linkable;
  const std::uint32_t* ids = nullptr;
  std::vector<std::uint32_t> launches;                                   // the file's launch_opens
  std::vector<bool> seen(std::max(fns_.size(), consts_.size()), false);  // for keep_first_seen
  // resolve_function(file, name) of an identifier, per distinct name of the file: asked once.
  std::vector<std::uint32_t> resolved_slot;  // per name id: 1 + index into `resolved`, or 0
  std::vector<std::vector<std::size_t>> resolved;
  for (std::size_t id = 0; id < fns_.size(); ++id) {
    Fn& fn = fns_[id];
    callees_.open();
    launched_.open();
    constants_.open();
    macros_.open();
    const Tokens v = tok_without_facts(fn.file);
    if (names_of != fn.file) {
      names_of = fn.file;
      linkable.assign(std::max<std::size_t>(v.f.name_count(), 1), -1);
      ids = v.f.name_ids();
      launches = launch_opens(v);
      resolved_slot.assign(v.f.name_count(), 0);
      resolved.clear();
    }
    auto functions_at = [&](std::size_t ci) -> const std::vector<std::size_t>& {
      std::uint32_t& slot = resolved_slot[v.f.name_id(ci)];
      if (slot == 0) {
        resolved.push_back(resolve_function(fn.file, v.t(ci)));
        slot = static_cast<std::uint32_t>(resolved.size());
      }
      return resolved[slot - 1];
    };
    auto can_link = [&](std::size_t ci) {  // or is hipLaunchKernelGGL
      signed char& known = linkable[ids[ci]];
      if (known < 0) {
        const std::string name(ids[ci] < v.f.name_count() ? v.f.name_text(ids[ci]) : std::string_view());
        known = name == "hipLaunchKernelGGL" || !functions_named(name).empty() || const_by_name_.count(name) ||
                        derived_.count(name) || lane_macros_.count(name)
                    ? 1
                    : 0;
      }
      return known != 0;
    };
    // Defaults of its template parameters, `template <int W = WARP_SIZE>`: constants it uses.
    for (std::size_t ci = fn.name_ci; ci > 0;) {
      --ci;
      if (v.is(ci, ";") || v.is(ci, "{") || v.is(ci, "}")) break;
      if (v.ident(ci) && v.is(ci - 1, "=") && (v.is(ci + 1, ">") || v.is(ci + 1, ",")))
        for (std::size_t c : resolve_constant(fn.file, v.t(ci))) constants_.add(static_cast<std::uint32_t>(c));
    }
    auto launch = std::upper_bound(launches.begin(), launches.end(), fn.body_open);
    for (std::size_t ci = fn.body_open + 1; ci < fn.body_close; ++ci) {
      if (launch != launches.end() && *launch == ci) {
        ++launch;
        const std::size_t k = launched_name(v, ci, fn.body_open);  // an identifier, or npos
        if (k != npos)
          for (std::size_t c : functions_at(k)) launched_.add(static_cast<std::uint32_t>(c));
        continue;
      }
      if (!can_link(ci) || !v.ident(ci) || v.member(ci)) continue;  // resolves to nothing, call or not
      const std::string_view name = v.t(ci);
      if (name == "hipLaunchKernelGGL" && v.is(ci + 1, "(")) {
        std::size_t k = ci + 2;
        if (v.is(k, "HIP_KERNEL_NAME") && v.is(k + 1, "(")) k += 2;
        if (v.ident(k))
          for (std::size_t c : functions_at(k)) launched_.add(static_cast<std::uint32_t>(c));
        continue;
      }
      bool call = v.is(ci + 1, "(");
      if (!call && v.is(ci + 1, "<")) {  // f<T, N>(...)
        int depth = 0;
        for (std::size_t j = ci + 1; j < fn.body_close; ++j) {
          if (v.is(j, "<")) ++depth;
          else if (v.is(j, ">")) {
            if (--depth == 0) {
              call = v.is(j + 1, "(");
              break;
            }
          } else if (v.is(j, ">>")) {
            depth -= 2;
            if (depth <= 0) {
              call = depth == 0 && v.is(j + 1, "(");
              break;
            }
          } else if (v.is(j, ";") || v.is(j, "{") || v.is(j, ")")) {
            break;
          }
        }
      }
      if (call) {
        // A qualified call (`cg::sync(cta)`) with no definition in its translation unit is a
        // library's: another program's function of that name is not it.
        const bool qualified = ci > 0 && v.is(ci - 1, "::");
        for (std::size_t c : functions_at(ci))
          if (c != id && !(qualified && tu_rank(fn.file, fns_[c].file) == 3))
            callees_.add(static_cast<std::uint32_t>(c));
        continue;
      }
      for (std::size_t c : resolve_constant(fn.file, name)) constants_.add(static_cast<std::uint32_t>(c));
      if (const auto m = lane_macros_.find(name); m != lane_macros_.end()) macros_.add(*m);
    }
    // Each id once per list, where it was first seen: every call site of a name adds all that it
    // resolves to (in a tree of copies, every copy's definition), and every reader takes the lists
    // as sets or unites along them, where uniting a pair again changes nothing.
    callees_.keep_first_seen(seen);
    launched_.keep_first_seen(seen);
    constants_.keep_first_seen(seen);
  }
  callees_.shrink();
  launched_.shrink();
  constants_.shrink();
  macros_.shrink();
  // Callers: per callee, each function that calls or launches it, once, in id order.
  callers_.build(fns_.size(), [&](const auto& emit) {
    for (std::size_t id = 0; id < fns_.size(); ++id) {
      for (const std::span<const std::uint32_t> targets : {callees_[id], launched_[id]})
        for (const std::uint32_t t : targets)
          if (!seen[t]) {
            seen[t] = true;
            emit(t, static_cast<std::uint32_t>(id));
          }
      for (const std::span<const std::uint32_t> targets : {callees_[id], launched_[id]})
        for (const std::uint32_t t : targets) seen[t] = false;
    }
  });
  // A function calling one with a warp operation works with warps too.
  for (Fn& fn : fns_) fn.warp = fn.direct_warp;
  for (bool changed = true; changed;) {
    changed = false;
    for (Fn& fn : fns_) {
      if (fn.warp) continue;
      for (std::size_t c : callees_[static_cast<std::size_t>(&fn - fns_.data())])
        if (fns_[c].warp) {
          fn.warp = true;
          changed = true;
          break;
        }
    }
  }
}

}  // namespace ferry::analysis::wave64_plan
