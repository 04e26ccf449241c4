#include "wave64/region_inline.h"

#include <algorithm>
#include <vector>

namespace ferry::wave64::regions {

std::string Inliner::mapped(std::size_t first, std::size_t last, const std::map<std::string, std::string>& ren) const {
  std::string r;
  for (std::size_t i = first; i <= last && i < v_.code_size(); ++i) {
    if (v_.in_directive(i)) continue;
    std::string t = tx(i);
    if (v_.is_identifier(i) && !v_.is_member_name(i) && !(i > 0 && is(i - 1, "::")))
      if (auto it = ren.find(t); it != ren.end()) t = it->second;
    if (!r.empty()) r += ' ';
    r += t;
  }
  return r;
}

// Replaces the statement `s` holding one call of a function of this file that reaches a barrier
// or warp operation by the function's body; nullopt when the call or the function is not in a
// form that can be inlined (the region pass then keeps the kernel on fibers and says why).
std::optional<std::string> Inliner::inline_one(const Stmt& s, std::map<std::string, std::string>& types, int id) {
  if (s.kind != SK::Simple) return std::nullopt;
  std::size_t c = npos;
  for (std::size_t i = s.first; i <= s.last; ++i) {
    if (!v_.is_identifier(i) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
    const std::string n = tx(i);
    if (!scope_.functions().count(n) || scope_.function_safe(n)) continue;
    if (!is(i + 1, "(") && scope_.template_call_paren(i) == npos) continue;
    if (c != npos) return std::nullopt;  // two such calls
    c = i;
  }
  if (c == npos) return std::nullopt;
  const std::string f = tx(c);
  if (scope_.functions().at(f).size() != 1) return std::nullopt;
  std::size_t po = is(c + 1, "(") ? c + 1 : scope_.template_call_paren(c);
  const std::size_t pc = v_.match_bracket(po);
  if (pc == npos || pc >= s.last) return std::nullopt;
  // the forms: f(a);  x = f(a);  T x = f(a);  and any statement with the call inside (the
  // result goes through a temporary): x = f(a) - b;  T x = g(f(a));  y[i] += f(a);
  for (std::size_t i = s.first; i <= s.last; ++i)
    if (is(i, "?") || is(i, "&&") || is(i, "||")) return std::nullopt;  // evaluated conditionally
  std::string before, target, tail;
  bool temp = false;
  const auto decl = decl_of_stmt(v_, s);
  if (c == s.first && pc + 1 == s.last) {
  } else if (c == s.first + 2 && v_.is_identifier(s.first) && is(s.first + 1, "=") && pc + 1 == s.last) {
    target = tx(s.first);
  } else if (decl && decl->ds.size() == 1 && decl->ds[0].init_first != npos && decl->ds[0].init_first <= c &&
             decl->ds[0].init_last >= pc && decl->ds[0].dims_first == npos && !decl->ds[0].paren_or_brace_init) {
    const Declarator& dc = decl->ds[0];
    std::string type;
    for (std::size_t i = decl->type_first; i <= decl->type_last; ++i)
      if (!is(i, "const") && !is(i, "constexpr")) type += tx(i) + " ";
    if (dc.ptr_first != npos) type += std::string(v_.span_text(dc.ptr_first, dc.ptr_last)) + " ";
    before = type + tx(dc.name) + "; ";
    types[tx(dc.name)] = type;
    if (dc.init_first == c && dc.init_last == pc) {
      target = tx(dc.name);
    } else {
      temp = true;
      tail = tx(dc.name) + " = " + (dc.init_first < c ? std::string(v_.span_text(dc.init_first, c - 1)) : "") +
             " w64_i" + std::to_string(id) + "_ret " +
             (pc < dc.init_last ? std::string(v_.span_text(pc + 1, dc.init_last)) : "") + ";";
    }
  } else if (!decl) {
    temp = true;
    tail = (c > s.first ? std::string(v_.span_text(s.first, c - 1)) : "") + " w64_i" + std::to_string(id) + "_ret " +
           std::string(v_.span_text(pc + 1, s.last));
  } else {
    return std::nullopt;
  }
  if (temp) target = "w64_i" + std::to_string(id) + "_ret";
  // the function: template <...> RET name(params) { ... return e; }
  const auto [fopen, fclose] = scope_.functions().at(f)[0];
  std::size_t rp = fopen;
  while (rp > 0 && !is(rp - 1, ")")) --rp;
  const std::size_t fparams = v_.partner(rp - 1);
  if (fparams == npos || fparams == 0 || tx(fparams - 1) != f) return std::nullopt;
  std::size_t head = fparams - 1;
  while (head > 0 && !is(head - 1, ";") && !is(head - 1, "}") && !is(head - 1, "{") && !v_.in_directive(head - 1))
    --head;
  struct TParam {
    std::string name;
    bool type;
    std::size_t def_first = npos, def_last = npos;
  };
  std::vector<TParam> tparams;
  std::size_t ret_first = head;
  for (std::size_t i = head; i < fparams - 1; ++i) {
    if (!(is(i, "template") && is(i + 1, "<"))) continue;
    int depth = 0;
    std::size_t j = i + 1, entry = i + 2;
    for (; j < fparams; ++j) {
      if (is(j, "<")) ++depth;
      else if (is(j, ">")) --depth;
      else if (is(j, "(") || is(j, "[")) j = v_.match_bracket(j);
      if (j == npos) return std::nullopt;
      if ((depth == 1 && is(j, ",")) || depth == 0) {
        TParam t;
        t.type = is(entry, "typename") || is(entry, "class");
        std::size_t end = j;
        for (std::size_t k = entry; k < j; ++k)
          if (is(k, "=")) {
            t.def_first = k + 1;
            t.def_last = j - 1;
            end = k;
            break;
          }
        if (end == entry || !v_.is_identifier(end - 1)) return std::nullopt;
        t.name = tx(end - 1);
        tparams.push_back(t);
        entry = j + 1;
      }
      if (depth == 0) break;
    }
    ret_first = j + 1;
    break;
  }
  bool void_ret = false;
  std::size_t rt_first = npos, rt_last = npos;  // the return type, specifiers left out
  for (std::size_t i = ret_first; i + 1 < fparams; ++i) {
    if ((is(i, "__attribute__") || is(i, "__launch_bounds__") || is(i, "alignas")) && is(i + 1, "(")) {
      i = v_.match_bracket(i + 1);
      if (i == npos) return std::nullopt;
      continue;
    }
    if (is(i, "__device__") || is(i, "__host__") || is(i, "__forceinline__") || is(i, "__inline__") ||
        is(i, "inline") || is(i, "static") || is(i, "__noinline__") || is(i, "constexpr") || is(i, "extern"))
      continue;
    if (rt_first == npos) rt_first = i;
    rt_last = i;
    void_ret = void_ret || is(i, "void");
  }
  if (rt_first == npos) return std::nullopt;
  // explicit template arguments
  std::map<std::string, std::string> ren;
  std::vector<std::string> targs;
  if (po != c + 1) {
    std::size_t entry = c + 2;
    int depth = 0;
    for (std::size_t j = c + 1; j < po; ++j) {
      if (is(j, "<")) ++depth;
      else if (is(j, ">")) --depth;
      else if (is(j, ">>")) depth -= 2;
      else if (is(j, "(") || is(j, "[")) j = v_.match_bracket(j);
      if ((depth == 1 && is(j, ",")) || (depth <= 0 && j + 1 == po)) {
        if (j == entry) return std::nullopt;
        targs.push_back(std::string(v_.span_text(entry, j - 1)));
        entry = j + 1;
      }
    }
  }
  if (targs.size() > tparams.size()) return std::nullopt;
  // parameters
  struct FParam {
    std::size_t first, last, name;
  };
  std::vector<FParam> fps;
  for (const lex::ArgRange& a : v_.call_args(fparams)) {
    if (a.empty()) continue;
    std::size_t last = a.last;
    for (std::size_t k = a.first; k <= a.last; ++k)
      if (is(k, "=")) last = k - 1;
    for (std::size_t k = a.first; k <= last; ++k)
      if (is(k, "&") || is(k, "&&") || is(k, "[") || is(k, "...")) return std::nullopt;
    if (a.first == last && is(last, "void")) continue;
    if (!v_.is_identifier(last) || last == a.first) return std::nullopt;
    fps.push_back({a.first, last - 1, last});
  }
  const std::vector<lex::ArgRange> args = v_.call_args(po);
  std::vector<lex::ArgRange> given;
  for (const lex::ArgRange& a : args)
    if (!a.empty()) given.push_back(a);
  if (given.size() != fps.size()) return std::nullopt;  // default arguments: not inlined
  for (std::size_t k = 0; k < tparams.size(); ++k) {
    const TParam& t = tparams[k];
    std::string value;
    if (k < targs.size()) {
      value = targs[k];
    } else {
      // deduced from an argument that is a name of known type, for a parameter declared `T name`
      for (std::size_t m = 0; m < fps.size() && value.empty(); ++m)
        if (fps[m].first == fps[m].last && tx(fps[m].first) == t.name && given[m].first == given[m].last &&
            types.count(tx(given[m].first)))
          value = types[tx(given[m].first)];
      if (value.empty() && t.def_first != npos) value = std::string(v_.span_text(t.def_first, t.def_last));
      if (value.empty()) return std::nullopt;
    }
    ren[t.name] = t.type ? value : "(" + value + ")";
  }
  const std::string prefix = "w64_i" + std::to_string(id) + "_";
  for (const FParam& p : fps) ren[tx(p.name)] = prefix + tx(p.name);
  // the body: returns only as its last statement; its locals renamed
  std::vector<Stmt> body;
  if (!parse_statements(v_, fopen + 1, fclose, body) || body.empty()) return std::nullopt;
  std::vector<const Stmt*> todo;
  for (const Stmt& st : body) todo.push_back(&st);
  while (!todo.empty()) {
    const Stmt* st = todo.back();
    todo.pop_back();
    if (st->kind == SK::Return && st != &body.back()) return std::nullopt;
    if (st->kind == SK::Directive && !is(st->first + 1, "pragma")) return std::nullopt;
    if (st->kind == SK::Other) return std::nullopt;
    if (auto d = decl_of_stmt(v_, *st))
      for (const Declarator& dc : d->ds) ren[tx(dc.name)] = prefix + tx(dc.name);
    if (st->kind == SK::For)
      if (auto d = for_init_decl(v_, *st))
        for (const Declarator& dc : d->ds) ren[tx(dc.name)] = prefix + tx(dc.name);
    for (const Stmt& k : st->kids) todo.push_back(&k);
  }
  const Stmt& last = body.back();
  if (!void_ret && last.kind != SK::Return) return std::nullopt;
  if (temp && void_ret) return std::nullopt;
  std::string r = before + "{ ";
  if (temp) r += mapped(rt_first, rt_last, ren) + " " + target + "; ";
  for (std::size_t k = 0; k < fps.size(); ++k) {
    const std::string type = mapped(fps[k].first, fps[k].last, ren);
    r += type + " " + prefix + tx(fps[k].name) + " = (" + std::string(v_.span_text(given[k].first, given[k].last)) +
         "); ";
    types[prefix + tx(fps[k].name)] = type;
  }
  for (const Stmt& st : body) {
    if (&st == &last && st.kind == SK::Return) {
      if (st.last > st.first + 1) {
        const std::string e = mapped(st.first + 1, st.last - 1, ren);
        r += target.empty() ? "(void)(" + e + "); " : target + " = (" + e + "); ";
      }
      continue;
    }
    if (st.kind == SK::Directive) continue;
    if (auto d = decl_of_stmt(v_, st)) {
      std::string type;
      for (std::size_t i = d->type_first; i <= d->type_last; ++i) type += tx(i) + " ";
      for (const Declarator& dc : d->ds)
        if (dc.ptr_first == npos) types[prefix + tx(dc.name)] = mapped(d->type_first, d->type_last, ren);
    }
    r += mapped(st.first, st.last, ren) + " ";
  }
  if (temp) r += tail + " ";
  return r + "}";
}

bool Inliner::inline_calls(std::string& out, std::map<int, std::string>& originals, int& next_id) {
  scope_.collect();
  TokenEdits edits;
  int ordinal = 0;
  for (std::size_t kw = 0; kw < v_.code_size(); ++kw) {
    if (!is(kw, "__global__") || v_.in_directive(kw)) continue;
    const int ord = ordinal++;
    std::size_t params_open = npos, open = npos, close = npos;
    if (!scope_.kernel_body(kw, params_open, open, close)) continue;
    std::vector<Stmt> body;
    if (!parse_statements(v_, open + 1, close, body)) continue;
    // the types of names, for template arguments deduced from them
    std::map<std::string, std::string> types;
    for (const lex::ArgRange& a : v_.call_args(params_open))
      if (!a.empty() && v_.is_identifier(a.last) && a.last > a.first)
        types[tx(a.last)] = std::string(v_.span_text(a.first, a.last - 1));
    std::vector<const Stmt*> todo;
    for (const Stmt& st : body) todo.push_back(&st);
    std::vector<const Stmt*> order;
    while (!todo.empty()) {
      const Stmt* st = todo.back();
      todo.pop_back();
      order.push_back(st);
      for (auto k = st->kids.rbegin(); k != st->kids.rend(); ++k) todo.push_back(&*k);
    }
    std::sort(order.begin(), order.end(), [](const Stmt* a, const Stmt* b) { return a->first < b->first; });
    bool changed = false;
    for (const Stmt* st : order) {
      if (auto d = decl_of_stmt(v_, *st))
        for (const Declarator& dc : d->ds)
          if (dc.ptr_first == npos && d->type_last >= d->type_first)
            types[tx(dc.name)] = std::string(v_.span_text(d->type_first, d->type_last));
      if (st->kind != SK::Simple) continue;
      if (auto text = inline_one(*st, types, next_id)) {
        ++next_id;
        // the statement's lines stay lines: the inlined code stands on the first
        *text += std::string(v_.code(st->last).line - v_.code(st->first).line, '\n');
        edits.push_back({{st->first, st->last}, *text});
        changed = true;
      }
    }
    if (changed && !originals.count(ord))
      originals[ord] = std::string(v_.source().substr(v_.code(open).end, v_.code(close).begin - v_.code(open).end));
  }
  if (edits.empty()) return false;
  out = apply_edits(v_, edits);
  return true;
}

}  // namespace ferry::wave64::regions
