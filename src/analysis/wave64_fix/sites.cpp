// Hazard sites of a component: warp-width constants and the lane math of its functions.
#include "analysis/wave64_fix/planner.h"

#include "analysis/const_eval.h"
#include "analysis/tokens.h"
#include "rewrite/roundtrip_record.h"

namespace ferry::analysis::wave64_plan {

void Planner::constant_site(std::size_t cid, std::vector<Site>& sites, std::vector<Blocker>& blockers) {
  const Constant& c = consts_[cid];
  const Tokens v = tok(c.file);
  const ConstantInfo& ci = c.info;
  // Another use of the name counts against this definition unless it is in a file with its own
  // definition of the name, of any value (each .cu of a project that defines its own WARP_SIZE).
  std::string other_where;
  if (const auto u = uses_.other_use_in.find(c.name); u != uses_.other_use_in.end()) {
    for (const auto& [path, where] : u->second) {
      bool own = false;
      if (path != path_of(c.file))
        for (std::size_t f = 0; f < in_.size(); ++f)
          if (path_of(f) == path && facts_of(f).constants.count(c.name)) own = true;  // any value
      if (!own) {
        other_where = where;
        break;
      }
    }
  } else if (uses_.other_use.count(c.name)) {
    other_where = uses_.other_use_where.count(c.name) ? uses_.other_use_where.at(c.name) : "?";
  }
  if (!other_where.empty()) {
    blockers.push_back({c.file, v.line(ci.name_ci),
                        "'" + c.name + "' is also used as something other than a warp width at " + other_where});
    return;
  }
  if (v.f.excluded(ci.name_ci)) {
    blockers.push_back({c.file, v.line(ci.name_ci), "the definition of '" + c.name + "' is excluded from rewriting"});
    return;
  }
  const lex::Token& first = v.f.code(ci.first_ci);
  std::uint32_t bol = first.begin;
  while (bol > 0 && v.f.source()[bol - 1] != '\n') --bol;
  const std::string indent(v.f.source().substr(bol, first.begin - bol));
  if (indent.find_first_not_of(" \t") != std::string::npos) {
    blockers.push_back(
        {c.file, v.line(ci.name_ci), "the definition of '" + c.name + "' shares its line with other code"});
    return;
  }
  // In HIP output the #if is recorded as added (rewrite/roundtrip_record.h, added conditional):
  // the way back keeps the #else branch, the original definition, and drops the rest.
  const std::string amd = std::string("#if defined(__HIP_PLATFORM_AMD__)") +
                          (options_.cuda_output ? "" : " " + std::string(rewrite::record::kAdded));
  const std::string wave = std::to_string(profile_.wave_size);
  std::string text;
  if (ci.is_macro) {
    const std::string value(v.f.span_text(ci.name_ci + 1, ci.last_ci));
    text = amd + "\n" + indent + "#define " + c.name + " " + wave + "  // ferry: wavefront width of " + profile_.name +
           "\n" + indent + "#else\n" + indent + "#define " + c.name + " " + value + "\n" + indent + "#endif";
  } else {
    const std::string decl(v.f.span_text(ci.first_ci, ci.last_ci));
    const std::string head(v.f.span_text(ci.first_ci, ci.name_ci + 1));
    text = amd + "\n" + indent + head + " " + wave + ";  // ferry: wavefront width of " + profile_.name + "\n" +
           indent + "#else\n" + indent + decl + "\n" + indent + "#endif";
  }
  Site s{Diag::WarpWidthConstant, true, c.file, v.at(ci.name_ci), {{v.at(ci.first_ci), v.end(ci.last_ci), text}}};
  sites.push_back(std::move(s));
}

namespace {
// The loop an unrolled butterfly's first step gets: in HIP output recorded as added
// (rewrite/roundtrip_record.h, added loop head), `for (...) /* ferry-cuda: (none) */ STEP`.
std::string added_loop_head(bool record) {
  const std::string head = "for (int ferry_off = warpSize / 2; ferry_off >= 16; ferry_off /= 2)";
  return record ? head + " " + std::string(rewrite::record::kAdded) + " " : head + " ";
}
}  // namespace

void Planner::scan_function(std::size_t fid, bool warp_ctx, std::vector<Site>& sites, std::vector<Blocker>& blockers) {
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  const std::size_t lo = fi.body_open + 1, hi = fi.body_close;
  std::set<std::size_t> covered;  // literal tokens a site rewrites or explains
  auto add = [&](Site s, std::initializer_list<std::size_t> cover) {
    for (std::size_t c : cover) covered.insert(c);
    sites.push_back(std::move(s));
  };
  for (const std::string_view m : macros_[fid])
    blockers.push_back({fn.file, v.line(fi.name_ci), "lane math hidden in the macro '" + std::string(m) + "'"});

  const std::set<std::string_view> warp_vars = warp_index_vars(v, fi);
  if (warp_ctx) {
    for (std::size_t i = lo; i < hi; ++i) {
      if (!v.ident(i) || v.member(i) || !v.is(i + 1, "(")) continue;
      const std::string_view s = v.t(i);
      if (s.starts_with("__match_") || (s.starts_with("__reduce_") && s.ends_with("_sync")))
        blockers.push_back({fn.file, v.line(i),
                            std::string(s) + " has no HIP 5.2 form and returns a 32-bit mask in "
                                             "CUDA: the code around it is for a human to port"});
      // FRY2206: a full 32-bit mask given to a _sync intrinsic
      if (!options_.fix_masks || !s.ends_with("_sync") || !is_warp_op(s) || v.partner(i + 1) == npos) continue;
      const auto args = v.f.call_args(i + 1);
      if (args.empty() || args[0].empty()) continue;
      const auto m = eval_constant(v.f, v.facts, args[0].first, args[0].last, &fi);
      if (!m || (*m != 0xffffffffLL && *m != -1)) continue;
      Site site{Diag::FullMask32,
                true,
                fn.file,
                v.at(args[0].first),
                {{v.at(args[0].first), v.end(args[0].last), "0xffffffffffffffffull"}}};
      for (std::size_t q = args[0].first; q <= args[0].last; ++q) covered_masks_.insert({fn.file, q});
      sites.push_back(std::move(site));
    }
    for (std::size_t i = lo; i < hi; ++i) {
      // ---- lane ids and warp indices (FRY2201, FRY2202) ----
      const bool op = v.is(i, "&") || v.is(i, "%") || v.is(i, "/") || v.is(i, ">>");
      if (op && v.ends_operand(i - 1) && v.number(i + 1)) {
        const auto val = parse_int(v.t(i + 1));
        const bool lane_op = (v.is(i, "&") && val == 31) || (v.is(i, "%") && val == 32);
        const bool warp_op = (v.is(i, ">>") && val == 5) || (v.is(i, "/") && val == 32);
        const std::string_view after = v.t(i + 2);
        const bool whole =
            !is_one_of(after, {"(", "[", ".", "->"}) &&
            !(v.is(i, "&") && is_one_of(after, {"+", "-", "*", "/", "%", "<<", ">>", "<", ">", "==", "!="})) &&
            !(v.is(i, ">>") && is_one_of(after, {"+", "-", "*", "/", "%"}));
        if ((lane_op || warp_op) && whole) {
          const std::size_t lf = detail::left_operand_first(v.f, i, lo);
          if (lf < i && (taint_of(v, fi, lf, i - 1) & 1)) {
            Site s{lane_op ? Diag::LaneId32 : Diag::WarpIndex32, true, fn.file, v.at(i), {}};
            std::vector<std::size_t> cover = {i + 1};
            const bool record = !options_.cuda_output;
            if (v.is(i, "&")) s.edits.push_back(recorded_paren(v, i + 1, "warpSize - 1", record));
            else if (v.is(i, "%") || v.is(i, "/")) s.edits.push_back(recorded_token(v, i + 1, "warpSize", record));
            // a round-up in the dividend: (n + 31) / 32, (n + 31) >> 5
            if (warp_op && v.is(i - 1, ")") && v.partner(i - 1) == lf) {
              for (std::size_t j = lf + 1; j + 1 < i - 1; ++j)
                if (v.is(j, "+") && v.number(j + 1) && parse_int(v.t(j + 1)) == 31 && j + 2 == i - 1) {
                  s.edits.push_back(recorded_token(v, j + 1, "warpSize - 1", record));
                  cover.push_back(j + 1);
                }
            }
            if (v.is(i, ">>")) {
              const bool simple = lf == i - 1 || detail::primary_last(v.f, lf) == i - 1;
              if (simple) {
                // recorded: `/ warpSize /* ferry-cuda: >> 5 */` (literal form, with its operator)
                s.edits.push_back({v.at(i), v.end(i + 1),
                                   "/ warpSize" + (record ? " " + rewrite::record::make(">> " + std::string(v.t(i + 1)))
                                                          : std::string())});
              } else if (const std::string was(v.f.span_text(lf, i + 1));
                         record && rewrite::record::recordable(was) && rewrite::record::span_can_open(v.f, lf)) {
                // recorded (span form): `((a + b) / warpSize) /* ferry-cuda: a + b >> 5 */`
                s.edits.push_back({v.at(lf), v.at(lf), "(("});
                s.edits.push_back({v.end(i - 1), v.end(i + 1), ") / warpSize) " + rewrite::record::make(was)});
              } else {
                s.edits.push_back({v.at(lf), v.at(lf), "("});
                s.edits.push_back({v.end(i - 1), v.end(i + 1), ") / warpSize"});
              }
            }
            add(std::move(s), {});
            for (std::size_t c : cover) covered.insert(c);
            continue;
          }
        }
      }
      // ---- lane bits (FRY2203) ----
      if (v.is(i, "<<") && v.number(i - 1) && parse_int(v.t(i - 1)) == 1 && narrow_literal(v.t(i - 1)) &&
          !is_one_of(v.t(i - 2), {".", "*", "/", "%", "->"})) {
        const std::size_t rl = detail::primary_last(v.f, i + 1);
        if (rl != npos && (taint_of(v, fi, i + 1, rl) & 3)) {
          const std::string lit(v.t(i - 1));
          std::string wide = "1ull";
          if (lit.find_first_of("uU") == std::string::npos && lit != "1") wide = lit + "ll";
          // recorded in HIP output for the way back (rewrite/roundtrip_record.h, literal form):
          // `1ull /* ferry-cuda: 1 */`
          add(Site{Diag::LaneBit32,
                   true,
                   fn.file,
                   v.at(i - 1),
                   {replace_token(v, i - 1, options_.cuda_output ? wide : wide + " " + rewrite::record::make(lit))}},
              {i - 1});
          continue;
        }
      }
      // ---- shuffle loops (FRY2205) ----
      if (v.is(i, "for") && v.is(i + 1, "(")) {
        const LoopInfo L = shuffle_loop(v, i, !options_.cuda_output);
        if (L.hit != npos) {
          if (!L.safe) {
            blockers.push_back({fn.file, v.line(L.hit), "a shuffle loop: " + L.why});
            covered.insert(L.hit);
          } else {
            Site s{Diag::ShuffleLoop32, true, fn.file, v.at(L.hit), L.edits};
            add(std::move(s), {L.hit});
            for (const Wave64ByteEdit& e : L.edits)
              for (std::size_t j = i; j < v.size() && v.at(j) <= e.begin; ++j)
                if (v.at(j) == e.begin) covered.insert(j);
          }
        }
      }
    }
    // ---- per-warp shared arrays (FRY2209) ----
    for (std::size_t i = lo; i < hi; ++i) {
      if (!v.is(i, "__shared__") || (i > 0 && v.is(i - 1, "extern"))) continue;
      std::size_t j = i + 1;
      while (v.ident(j) || v.is(j, "::")) {
        if (is_one_of(v.t(j), {"__align__", "alignas"}) && v.is(j + 1, "(") && v.partner(j + 1) != npos) {
          j = v.partner(j + 1) + 1;
          continue;
        }
        ++j;
      }
      const std::size_t name = j - 1;
      if (!v.ident(name) || !v.is(j, "[")) continue;
      std::vector<std::pair<std::size_t, std::size_t>> extents;
      for (std::size_t k = j; v.is(k, "[") && v.partner(k) != npos; k = v.partner(k) + 1)
        extents.push_back({k + 1, v.partner(k) - 1});
      bool has32 = false, widened = false;
      for (const auto& [a, b] : extents)
        for (std::size_t q = a; q <= b; ++q) {
          if (v.number(q) && parse_int(v.t(q)) == 32) has32 = true;
          // this fix's own `(E) > 64 ? (E) : 64` (a second migration)
          if (v.is(q, ">") && v.is(q + 1, "64") && v.is(q + 2, "?")) widened = true;
        }
      if (!has32 || widened) continue;
      bool lane_indexed = false;
      for (std::size_t q = lo; q < hi && !lane_indexed; ++q) {
        if (q == name || !v.is(q, v.t(name)) || !v.is(q + 1, "[") || v.partner(q + 1) == npos) continue;
        if (taint_of(v, fi, q + 2, v.partner(q + 1) - 1) & 2) lane_indexed = true;
      }
      if (!lane_indexed) continue;
      for (const auto& [a, b] : extents)
        for (std::size_t q = a; q <= b; ++q)
          if (v.number(q)) covered.insert(q);
      if (extents.size() == 1) {
        const auto [a, b] = extents[0];
        const std::string e(v.f.span_text(a, b));
        // recorded (literal form, or a span inside the brackets): `[64 /* ferry-cuda: 32 */]`
        const bool record = !options_.cuda_output && rewrite::record::recordable(e);
        std::string text = (a == b) ? "64" : "(" + e + ") > 64 ? (" + e + ") : 64";
        if (record) text = (a == b) ? text + " " + rewrite::record::make(e) : rewrite::record::span(text, e);
        add(Site{Diag::PerWarpShared32, true, fn.file, v.at(name), {{v.at(a), v.end(b), text}}}, {});
        continue;
      }
      // More dimensions ([warps][lanes], [N / 32][32]): a dimension of exactly 32 is one slot per
      // lane (or per warp) and gets 64; a count of warps `E / 32` only shrinks on wavefronts of 64
      // and stays. Any other use of 32 in a dimension (padding as in [32][33]) is not understood.
      std::vector<Wave64ByteEdit> edits;
      std::string why;
      for (const auto& [a, b] : extents) {
        bool any32 = false;
        for (std::size_t q = a; q <= b; ++q)
          if (v.number(q) && parse_int(v.t(q)) == 32) any32 = true;
        if (!any32) continue;
        if (a == b) {
          edits.push_back(recorded_token(v, a, "64", !options_.cuda_output));
        } else if (!(b >= a + 2 && v.is(b - 1, "/") && v.number(b) && parse_int(v.t(b)) == 32)) {
          why = "a dimension '" + std::string(v.f.span_text(a, b)) +
                "' uses 32 other than as 32 slots or a count of warps";
          break;
        } else {
          for (std::size_t q = a; q + 1 < b; ++q)
            if (v.number(q) && parse_int(v.t(q)) == 32) {
              why = "a dimension '" + std::string(v.f.span_text(a, b)) + "' uses 32 other than as a count of warps";
              break;
            }
          if (!why.empty()) break;
        }
      }
      if (!why.empty()) {
        blockers.push_back({fn.file, v.line(name), "__shared__ '" + std::string(v.t(name)) + "': " + why});
        continue;
      }
      add(Site{Diag::PerWarpShared32, true, fn.file, v.at(name), std::move(edits)}, {});
    }
  }

  // ---- the other 32-lane numbers: warp-width roles, or a blocker ----
  for (std::size_t i = lo; i < hi; ++i) {
    if (!v.number(i) || covered.count(i) || covered_masks_.count({fn.file, i})) continue;
    const auto val = parse_int(v.t(i));
    if (!val) continue;
    const bool shift_five =
        *val == 5 && (v.is(i - 1, ">>") || v.is(i - 1, "<<") || v.is(i - 1, ">>=") || v.is(i - 1, "<<="));
    const bool core = *val == 16 || *val == 31 || *val == 32 || shift_five;
    const bool multiple = *val >= 64 && *val <= 4096 && *val % 32 == 0;
    if (!core && !multiple) continue;
    const auto [sa, sb] = v.statement(i, lo, hi);
    const unsigned t = taint_of(v, fi, sa, sb);
    bool warpish = false;
    for (std::size_t q = sa; q <= sb; ++q)
      if (v.ident(q) && (is_warp_op(v.t(q)) || resolve_constant(fn.file, v.t(q)).size())) warpish = true;
    if (!(t & 3) && !warpish) continue;           // not about lanes or threads
    if (!(t & 2) && !warpish && !core) continue;  // thread ids and block sizes: 256, 1024...
    if (!warp_ctx && !(t & 2) && !warpish && !constants_[fid].empty()) {
      // a function that only shares a warp constant: its own thread arithmetic is not lane math
      continue;
    }
    if (warp_ctx) {
      // HIP output records each rewritten literal (rewrite/roundtrip_record.h): `warpSize /*
      // ferry-cuda: 32 */`, `(warpSize - 1) /* ferry-cuda: 31 */`
      const bool record = !options_.cuda_output;
      // The width guards of an unrolled butterfly (`if (W >= 32) v += __shfl_down(v, 16); if (W >= 16)
      // v += __shfl_down(v, 8); ...`, W the width of the group being reduced): the guards of the
      // steps at 8 and below are right on any wavefront; the first step becomes a loop from the
      // wavefront's half, each step kept under its own guard, so a group of 32 stays one.
      if (const std::size_t step = guarded_shuffle_step(v, fi, sa, sb, i); step != npos && !covered.count(step)) {
        if (*val == 32)
          add(Site{Diag::ShuffleLoop32,
                   true,
                   fn.file,
                   v.at(step),
                   {{v.at(sa), v.at(sa), added_loop_head(record)},
                    record ? recorded_paren(v, i, "2 * ferry_off", record) : replace_token(v, i, "2 * ferry_off"),
                    recorded_token(v, step, "ferry_off", record)}},
              {i, step});
        continue;
      }
      // shuffle width 32 and source lane 31
      bool handled = false;
      for (std::size_t q = i; q > sa; --q) {
        if (!v.is(q - 1, "(") || !v.ident(q - 2) || !v.t(q - 2).starts_with("__shfl")) continue;
        const auto args = v.f.call_args(q - 1);
        const bool sync = v.t(q - 2).ends_with("_sync");
        const std::size_t width_at = sync ? 3 : 2, lane_at = sync ? 2 : 1;
        for (std::size_t a = 0; a < args.size(); ++a) {
          if (args[a].first != i || args[a].last != i) continue;
          if (a == width_at && *val == 32) {
            add(Site{Diag::ShuffleLoop32, false, fn.file, v.at(i), {recorded_token(v, i, "warpSize", record)}}, {i});
            handled = true;
          } else if (a == lane_at && *val == 31 && is_one_of(v.t(q - 2), {"__shfl", "__shfl_sync"})) {
            add(Site{Diag::LaneId32, false, fn.file, v.at(i), {recorded_paren(v, i, "warpSize - 1", record)}}, {i});
            handled = true;
          } else if (a == lane_at && *val == 16 &&
                     is_one_of(v.t(q - 2), {"__shfl_xor", "__shfl_xor_sync", "__shfl_down", "__shfl_down_sync"}) &&
                     args.size() == lane_at + 1) {
            // the first step of an unrolled butterfly: `v += __shfl_xor_sync(m, v, 16);`
            const bool stmt = v.is(sb + 1, ";") && sa < q - 2;
            if (stmt) {
              add(Site{Diag::ShuffleLoop32,
                       true,
                       fn.file,
                       v.at(i),
                       {{v.at(sa), v.at(sa), added_loop_head(record)}, recorded_token(v, i, "ferry_off", record)}},
                  {i});
              handled = true;
            }
          }
        }
        break;
      }
      if (handled) continue;
      // stride of a lane loop: for (int i = lane; ...; i += 32)
      if (*val == 32 && (v.is(i - 1, "+=") || v.is(i - 1, "-=")) && v.ident(i - 2)) {
        const std::string_view var = v.t(i - 2);
        unsigned vt = 0;
        for (const VarDef& d : fi.defs)
          if (d.at < i && d.name == var) vt = d.taint;
        if (vt & 2) {
          add(Site{Diag::LaneId32, false, fn.file, v.at(i), {recorded_token(v, i, "warpSize", record)}}, {i});
          continue;
        }
      }
      // warp * 32 (the warp's first thread)
      if (*val == 32 && ((v.is(i - 1, "*") && v.ident(i - 2) && warp_vars.count(v.t(i - 2)) && !v.member(i - 2)) ||
                         (v.is(i + 1, "*") && v.ident(i + 2) && warp_vars.count(v.t(i + 2)) &&
                          !is_one_of(v.t(i + 3), {"(", "[", ".", "->"})))) {
        add(Site{Diag::WarpIndex32, false, fn.file, v.at(i), {recorded_token(v, i, "warpSize", record)}}, {i});
        continue;
      }
      // the first warp: threadIdx.x < 32
      if ((*val == 32 && (v.is(i - 1, "<") || v.is(i - 1, ">="))) ||
          (*val == 31 && (v.is(i - 1, ">") || v.is(i - 1, "<=")))) {
        const std::size_t lf = detail::left_operand_first(v.f, i - 1, sa);
        if (lf < i - 1 && (taint_of(v, fi, lf, i - 2) & 3) == 1) {
          add(Site{Diag::WarpIndex32,
                   false,
                   fn.file,
                   v.at(i),
                   {*val == 32 ? recorded_token(v, i, "warpSize", record)
                               : recorded_paren(v, i, "warpSize - 1", record)}},
              {i});
          continue;
        }
      }
    }
    blockers.push_back({fn.file, v.line(i),
                        "the number " + std::string(v.t(i)) + " in '" +
                            std::string(v.f.span_text(sa, sb)).substr(0, 80) +
                            "' works with lane ids or thread ids in a way the fixer does not rewrite"});
  }
  if (v.f.excluded(fi.body_open) || v.f.excluded(fi.body_close)) {
    for (const Site& s : sites)
      if (s.file == fn.file) {
        blockers.push_back({fn.file, v.line(fi.name_ci), "part of '" + fi.name + "' is excluded from rewriting"});
        break;
      }
  }
  scan_masks(fid, warp_ctx, sites, blockers);
}

}  // namespace ferry::analysis::wave64_plan
