// The values a block size can take, and the extents of a launch's block argument.
#include "analysis/wave64_fix/planner.h"

#include "analysis/const_eval.h"
#include "analysis/tokens.h"

namespace ferry::analysis::wave64_plan {

void Planner::call_site_values(std::size_t fid, std::size_t param, bool template_arg, int depth, Values& out) const {
  const std::string& name = info(fns_[fid]).name;
  bool any = false;
  for (const std::size_t caller : callers_[fid]) {
    const Fn& c = fns_[caller];
    const FunctionInfo& ci = info(c);
    const Tokens v = tok(c.file);
    for (std::size_t q = ci.body_open + 1; q < ci.body_close; ++q) {
      if (!v.is(q, name) || v.member(q)) continue;
      std::size_t open = q + 1;
      std::vector<std::pair<std::size_t, std::size_t>> targs;
      if (v.is(open, "<")) {
        int d = 0;
        std::size_t close = npos;
        for (std::size_t j = open; j < ci.body_close; ++j) {
          if (v.is(j, "<")) ++d;
          else if (v.is(j, ">") && --d == 0) {
            close = j;
            break;
          }
          if (v.is(j, ";")) break;
        }
        if (close == npos) continue;
        if (close > open + 1) targs = split_commas(v, open + 1, close - 1);
        open = close + 1;
      }
      std::vector<std::pair<std::size_t, std::size_t>> args = std::move(targs);
      if (!template_arg) {
        if (!v.is(open, "(") || v.partner(open) == npos) continue;
        args = split_commas(v, open + 1, v.partner(open) - 1);
      }
      if (param >= args.size()) {
        out.unknown = true;
        continue;
      }
      any = true;
      out.merge(values(caller, args[param].first, args[param].second, depth + 1));
    }
  }
  if (!any) out.unknown = true;
}

// A block size passed down a chain of calls is asked for once per call site of every function on
// the way; the answer depends only on the range and the depth (which bounds the search), so it is
// kept: a project with many callers of one kernel launcher stays linear.
Planner::Values Planner::values(std::size_t fid, std::size_t a, std::size_t b, int depth) const {
  const std::tuple<std::size_t, std::size_t, std::size_t, int> key{fid, a, b, depth};
  if (const auto hit = values_memo_.find(key); hit != values_memo_.end()) return hit->second;
  Values out = values_uncached(fid, a, b, depth);
  values_memo_.emplace(key, out);
  return out;
}

Planner::Values Planner::values_uncached(std::size_t fid, std::size_t a, std::size_t b, int depth) const {
  Values out;
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
  if (a > b || b >= v.size() || depth > 4) {
    out.unknown = true;
    return out;
  }
  if (const auto n = eval_constant(v.f, v.facts, a, b, &fi)) {
    out.known.insert(*n);
    return out;
  }
  // dim3(x, y, z), dim3{x, y}, {x, y}: the x extent is what wavefronts are cut from
  if ((v.is(a, "dim3") && (v.is(a + 1, "(") || v.is(a + 1, "{")) && v.partner(a + 1) == b) ||
      (v.is(a, "{") && v.partner(a) == b)) {
    const std::size_t open = v.is(a, "{") ? a : a + 1;
    const auto parts = split_commas(v, open + 1, b - 1);
    if (parts.empty()) {
      out.unknown = true;
      return out;
    }
    return values(fid, parts[0].first, parts[0].second, depth + 1);
  }
  // c ? x : y
  {
    int d = 0;
    std::size_t q = npos, colon = npos;
    for (std::size_t i = a; i <= b; ++i) {
      if ((v.is(i, "(") || v.is(i, "[")) && v.partner(i) != npos) {
        i = v.partner(i);
        continue;
      }
      if (v.is(i, "?") && q == npos) q = i, d = 0;
      else if (v.is(i, "?")) ++d;
      else if (v.is(i, ":") && q != npos && d-- == 0) {
        colon = i;
        break;
      }
    }
    if (q != npos && colon != npos) {
      out.merge(values(fid, q + 1, colon - 1, depth + 1));
      out.merge(values(fid, colon + 1, b, depth + 1));
      return out;
    }
  }
  // min(x, y) / std::min<T>(x, y): one of the two
  {
    std::size_t n = a;
    if (v.is(n, "std") && v.is(n + 1, "::")) n += 2;
    if ((v.is(n, "min") || v.is(n, "max"))) {
      std::size_t open = n + 1;
      if (v.is(open, "<")) {
        while (open <= b && !v.is(open, ">")) ++open;
        ++open;
      }
      if (v.is(open, "(") && v.partner(open) == b) {
        for (const auto& [x, y] : split_commas(v, open + 1, b - 1)) out.merge(values(fid, x, y, depth + 1));
        return out;
      }
    }
  }
  // x * WARP_SIZE: a whole number of (new) warps
  for (std::size_t i = a; i <= b; ++i) {
    if ((v.is(i, "(") || v.is(i, "[")) && v.partner(i) != npos) {
      i = v.partner(i);
      continue;
    }
    if (!v.is(i, "*")) continue;
    if ((i + 1 == b && v.ident(b) && !resolve_constant(fn.file, v.t(b)).empty()) ||
        (i - 1 == a && v.ident(a) && !resolve_constant(fn.file, v.t(a)).empty())) {
      out.multiple = true;
      return out;
    }
  }
  if (a == b && v.ident(a)) {
    const std::string_view x = v.t(a);
    if (!resolve_constant(fn.file, x).empty()) {
      out.multiple = true;
      return out;
    }
    bool found = false;
    for (const VarDef& d : fi.defs) {
      if (d.name != x || d.at >= a) continue;
      found = true;
      out.merge(values(fid, d.at + 1, expr_end(v, d.at + 1, fi.body_close), depth + 1));
    }
    for (std::size_t q = fi.body_open + 1; q < a; ++q) {
      // dim3 x(...) / dim3 x{...}
      if (v.is(q, "dim3") && v.is(q + 1, x) && (v.is(q + 2, "(") || v.is(q + 2, "{")) && v.partner(q + 2) != npos) {
        found = true;
        const auto parts = split_commas(v, q + 3, v.partner(q + 2) - 1);
        if (parts.empty()) out.unknown = true;
        else out.merge(values(fid, parts[0].first, parts[0].second, depth + 1));
      }
      // for (int x : {64, 128})
      if (v.is(q, x) && v.is(q + 1, ":") && v.is(q + 2, "{") && v.partner(q + 2) != npos) {
        found = true;
        for (const auto& [p, r] : split_commas(v, q + 3, v.partner(q + 2) - 1)) out.merge(values(fid, p, r, depth + 1));
      }
    }
    if (found) return out;
    // a parameter: the arguments of every call
    const std::size_t popen = fi.name_ci + 1;
    if (v.is(popen, "(") && v.partner(popen) != npos) {
      const auto params = split_commas(v, popen + 1, v.partner(popen) - 1);
      for (std::size_t k = 0; k < params.size(); ++k) {
        std::size_t last = params[k].second;
        for (std::size_t q = params[k].first; q <= params[k].second; ++q)
          if (v.is(q, "=")) last = q - 1;
        if (v.is(last, x)) {
          call_site_values(fid, k, false, depth, out);
          return out;
        }
      }
    }
    // a template parameter: the template arguments of every call
    for (std::size_t q = fi.name_ci; q > 1; --q) {
      if (v.is(q - 1, ";") || v.is(q - 1, "}") || v.f.code(q - 1).in_directive) break;
      if (!(v.is(q - 1, "<") && v.is(q - 2, "template"))) continue;
      std::size_t close = q;
      int d = 1;
      for (; close < fi.name_ci; ++close) {
        if (v.is(close, "<")) ++d;
        else if (v.is(close, ">") && --d == 0) break;
      }
      const auto tparams = split_commas(v, q, close - 1);
      for (std::size_t k = 0; k < tparams.size(); ++k)
        if (v.is(tparams[k].second, x)) {
          call_site_values(fid, k, true, depth, out);
          return out;
        }
      break;
    }
  }
  out.unknown = true;
  return out;
}

// The extents of a launch's block argument (form (a) of WMMA components): x from values(), y and z
// only from constants, so that the doubled block can be checked against 1024 threads.
Planner::BlockExtents Planner::block_extents(std::size_t fid, std::size_t a, std::size_t b) const {
  BlockExtents out;
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
  const auto xs = [&](std::size_t p, std::size_t q) {
    const Values r = values(fid, p, q, 0);
    if (r.unknown || r.multiple || r.known.empty()) out.why = "its x extent is not known";
    else out.x.insert(r.known.begin(), r.known.end());
  };
  // y and z of dim3(x, y, z) parts: constants only
  const auto yz_of = [&](const std::vector<std::pair<std::size_t, std::size_t>>& parts) {
    long long yz = 1;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const auto n = eval_constant(v.f, v.facts, parts[k].first, parts[k].second, &fi);
      if (!n || *n <= 0) {
        out.why = "its y or z extent is not a constant";
        return 1LL;
      }
      yz *= *n;
    }
    return yz;
  };
  if (const auto n = eval_constant(v.f, v.facts, a, b, &fi)) {
    out.x.insert(*n);
    return out;
  }
  if (v.is(a, "dim3") && v.is(a + 1, "(") && v.partner(a + 1) == b) {
    out.form = 2;
    const auto parts = split_commas(v, a + 2, b - 1);
    if (parts.empty() || parts.size() > 3) {
      out.why = "a dim3 Ferry cannot read";
      return out;
    }
    xs(parts[0].first, parts[0].second);
    out.yz = yz_of(parts);
    return out;
  }
  if (a != b || !v.ident(a)) {
    // an integer expression: its values
    for (std::size_t q = a; q <= b; ++q)
      if (v.is(q, "dim3") || v.is(q, "{") || v.is(q, ".")) {
        out.why = "a block argument Ferry cannot read";
        return out;
      }
    xs(a, b);
    return out;
  }
  const std::string_view x = v.t(a);
  // a parameter of type dim3: its y and z are not followed
  const std::size_t popen = fi.name_ci + 1;
  if (v.is(popen, "(") && v.partner(popen) != npos)
    for (const auto& [p, q] : split_commas(v, popen + 1, v.partner(popen) - 1))
      if (v.is(q, x))
        for (std::size_t r = p; r < q; ++r)
          if (v.is(r, "dim3")) {
            out.why = "it is a dim3 parameter";
            return out;
          }
  std::size_t decl = npos;
  for (std::size_t q = fi.body_open + 1; q < a; ++q)
    if (v.is(q, "dim3") && v.is(q + 1, x)) {
      if (decl != npos) {
        out.why = "'" + std::string(x) + "' is declared twice";
        return out;
      }
      decl = q;
    }
  if (decl == npos) {  // an integer variable or constant
    xs(a, b);
    return out;
  }
  out.form = 1;
  // the block the declaration and the launch share: member assignments there replace the extents
  const auto enclosing = [&](std::size_t ci) {
    int depth = 0;
    for (std::size_t q = ci; q > fi.body_open; --q) {
      if (v.is(q - 1, "}")) ++depth;
      else if (v.is(q - 1, "{") && depth-- == 0) return q - 1;
    }
    return fi.body_open;
  };
  const std::size_t scope = enclosing(decl);
  std::map<std::string, std::pair<std::size_t, std::size_t>> assigned;  // member -> value range
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  if (v.is(decl + 2, "(") || v.is(decl + 2, "{")) {
    if (v.partner(decl + 2) == npos) {
      out.why = "a dim3 Ferry cannot read";
      return out;
    }
    parts = split_commas(v, decl + 3, v.partner(decl + 2) - 1);
  } else if (!v.is(decl + 2, ";")) {
    out.why = "'" + std::string(x) + "' is initialised in a way Ferry does not follow";
    return out;
  }
  for (std::size_t q = decl + 2; q < fi.body_close; ++q) {
    if (!v.is(q, x) || v.member(q) || q == a) continue;
    if (v.is(q + 1, ".") && is_one_of(v.t(q + 2), {"x", "y", "z"})) {
      if (!v.is(q + 3, "=")) {
        if (v.t(q + 3).size() == 2 && v.t(q + 3)[1] == '=' && !v.is(q + 3, "==")) {
          out.why =
              "'" + std::string(x) + "." + std::string(v.t(q + 2)) + "' is changed in a way Ferry does not follow";
          return out;
        }
        continue;  // a read
      }
      if (q > a || enclosing(q) != scope) {
        out.why =
            "'" + std::string(x) + "." + std::string(v.t(q + 2)) + "' is assigned after the launch or in another block";
        return out;
      }
      assigned[std::string(v.t(q + 2))] = {q + 4, expr_end(v, q + 4, fi.body_close)};
      continue;
    }
    if (v.f.code(q - 1).kind == lex::Kind::LaunchOpen || v.is(q - 1, ",")) {
      // another launch's argument is fine; anything else (`b = ...`, `f(b)`) is not followed
      if (v.is(q + 1, ",") || v.is(q + 1, ">>>") || v.f.code(q + 1).kind == lex::Kind::LaunchClose) continue;
    }
    out.why = "'" + std::string(x) + "' is used in a way Ferry does not follow";
    return out;
  }
  const char* names[] = {"x", "y", "z"};
  long long yz = 1;
  for (int k = 0; k < 3; ++k) {
    std::pair<std::size_t, std::size_t> r{npos, npos};
    if (auto it = assigned.find(names[k]); it != assigned.end()) r = it->second;
    else if (static_cast<std::size_t>(k) < parts.size()) r = parts[k];
    if (r.first == npos) {
      if (k == 0) out.x.insert(1);
      continue;
    }
    if (k == 0) {
      xs(r.first, r.second);
      continue;
    }
    const auto n = eval_constant(v.f, v.facts, r.first, r.second, &fi);
    if (!n || *n <= 0) {
      out.why = "its y or z extent is not a constant";
      return out;
    }
    yz *= *n;
  }
  out.yz = yz;
  return out;
}

}  // namespace ferry::analysis::wave64_plan
