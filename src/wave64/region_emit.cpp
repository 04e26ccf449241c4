#include "wave64/region_split.h"

namespace ferry::wave64::regions {

// Code tokens [first, last] as written, each warp operation replaced by its result (take) .
std::string Splitter::text_with(std::size_t first, std::size_t last, const std::vector<OpUse>& ops, bool take) const {
  std::string r;
  std::size_t from = first;
  for (const OpUse& op : ops) {
    if (op.first < first || op.close > last) continue;
    if (op.first > from) r += std::string(v_.span_text(from, op.first - 1)) + " ";
    if (take)
      r += "w64_s" + std::to_string(op.slot) + ".take<decltype(" + std::string(v_.span_text(op.first, op.close)) +
           ")>(w64_l)";
    from = op.close + 1;
  }
  if (from <= last) r += std::string(v_.span_text(from, last));
  return r;
}

std::string Splitter::piece_text(const Piece& p, const std::set<std::string>& promoted,
                                 const std::string& quoted) const {
  if (p.kind == Piece::Text) return line(p.at, quoted) + p.text;
  if (p.kind == Piece::Put) {
    std::string r;
    for (const OpUse& op : p.ops) {
      r += line(op.name, quoted) + "::w64::rg::" + tx(op.name) + "(w64_s" + std::to_string(op.slot) + ", w64_l";
      if (op.close > op.open + 1) r += ", " + std::string(v_.span_text(op.open + 1, op.close - 1));
      r += ");";
    }
    return r;
  }
  const Stmt& s = *p.s;
  const bool take = p.kind == Piece::Take;
  if (auto d = as_decl(s)) {
    bool any = false;
    for (const Declarator& dc : d->ds) any = any || promoted.count(tx(dc.name));
    if (any) {
      std::string r = line(s.first, quoted);
      bool first = true;
      for (const Declarator& dc : d->ds) {
        if (dc.init_first == npos) continue;
        r += (first ? "" : ", ") + tx(dc.name) + " = " + text_with(dc.init_first, dc.init_last, p.ops, take);
        first = false;
      }
      return r + ";";
    }
  }
  return line(s.first, quoted) + text_with(s.first, s.last, p.ops, take);
}

// Whether the kernel takes the address of `name` (or of a part of it) anywhere: `&name`,
// `&name.x`, `&name[i]`. Such a local stays in its per-lane array in every region.
bool Splitter::address_taken(const std::string& name) const {
  for (std::size_t i = open_ + 1; i < close_; ++i) {
    if (!is(i, name) || member_or_scoped(v_, i) || !is(i - 1, "&")) continue;
    const std::size_t p = i - 1;
    if (p == 0 || !(v_.is_identifier(p - 1) || v_.is_number(p - 1) || is(p - 1, ")") || is(p - 1, "]"))) return true;
  }
  return false;
}

// Whether region `g` may change the local `name`: an assignment or increment of it or of a part
// of it, a member call on it, or an argument of a call that is not pure (it may take a reference).
// The arguments of a warp operation's put are values.
bool Splitter::may_write(const Region& g, const std::string& name) const {
  for (const Piece& p : g.pieces) {
    std::size_t first = p.at, last = p.last;
    if (p.kind == Piece::Put) continue;
    if (p.kind != Piece::Text) first = p.s->first, last = p.s->last;
    if (last == npos) return true;
    for (std::size_t i = first; i <= last; ++i) {
      if (!is(i, name) || member_or_scoped(v_, i)) continue;
      if (i > first && (is(i - 1, "++") || is(i - 1, "--") || is(i - 1, "&"))) return true;
      std::size_t j = i + 1;
      for (;;) {
        if ((is(j, ".") || is(j, "->")) && v_.is_identifier(j + 1)) j += 2;
        else if (is(j, "[") && v_.match_bracket(j) != npos) j = v_.match_bracket(j) + 1;
        else break;
      }
      if (j <= last + 1 && (is_assign_op(v_.text(j)) || is(j, "++") || is(j, "--") || is(j, "("))) return true;
      // inside the arguments of a call
      int depth = 0;
      for (std::size_t k = i; k-- > first;) {
        if (is(k, ")") || is(k, "]")) ++depth;
        else if ((is(k, "(") || is(k, "[")) && depth > 0) --depth;
        else if (is(k, "(") && k > first) {
          const std::size_t f = k - 1;
          if (is(f, ">")) return true;
          if (v_.is_identifier(f) && !is_keyword_call(v_.text(f)) && !pure_call(v_.text(f))) return true;
        }
      }
    }
  }
  return false;
}

// Every name a declaration anywhere in the body introduces (loop and if headers may not read them).
void Splitter::collect_declared(const std::vector<Stmt>& body) {
  std::vector<const Stmt*> todo;
  for (const Stmt& s : body) todo.push_back(&s);
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (auto d = as_decl(*s))
      for (const Declarator& dc : d->ds) declared_anywhere_.insert(tx(dc.name));
    if (s->kind == SK::For)
      if (auto d = for_init_decl(v_, *s))
        for (const Declarator& dc : d->ds) declared_anywhere_.insert(tx(dc.name));
    for (const Stmt& k : s->kids) todo.push_back(&k);
  }
}

// The locals that live across regions (per-lane arrays in region form), with their declarations.
std::set<std::string> Splitter::promoted_locals(std::map<std::string, const Stmt*>& decl_of) {
  std::set<std::string> promoted;
  for (const auto& [name, where] : decls_) {
    std::set<int> in;
    for (std::size_t r = 0; r < regions_.size(); ++r)
      if (regions_[r].names.count(name)) in.insert(static_cast<int>(r));
    if (in.size() <= 1 && !in_place_.count(name)) continue;
    if (where.size() != 1) fail("the local `" + name + "` is declared twice between barriers", where[0].first->first);
    if (hoisted_names_.count(name) || all_loop_vars_.count(name))
      fail("the local `" + name + "` shadows another name", where[0].first->first);
    const Stmt& s = *where[0].first;
    // used before its declaration (another variable of that name): unsure
    for (std::size_t i = open_; i < s.first; ++i)
      if (is(i, name) && !v_.is_member_name(i)) fail("the name `" + name + "` is used before its declaration", i);
    promoted.insert(name);
    decl_of[name] = &s;
  }

  // a statement declaring several names: all of them or none live in per-lane arrays
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, where] : decls_) {
      if (promoted.count(name) || where.size() != 1) continue;
      const Stmt* s = where[0].first;
      bool with = false;
      for (const auto& [other, st] : decl_of) with = with || st == s;
      if (!with) continue;
      if (hoisted_names_.count(name) || all_loop_vars_.count(name))
        fail("the local `" + name + "` shadows another name", s->first);
      promoted.insert(name);
      decl_of[name] = s;
      grew = true;
    }
  }

  return promoted;
}

// `::w64::rg::Lanes<T> w64_v_NAME(w64_b);` for the local `name` declared in `s`.
std::string Splitter::lanes_declaration(const std::string& name, const Stmt& s, const std::string& quoted) const {
  const Decl d = *as_decl(s);
  const Declarator* dc = nullptr;
  for (const Declarator& x : d.ds)
    if (tx(x.name) == name) dc = &x;
  if (d.ds.size() > 1)
    for (const Declarator& x : d.ds)
      if (x.ptr_first != npos) fail("a declaration of several pointers lives across a barrier", s.first);
  for (std::size_t i = d.type_first; i <= d.type_last; ++i)
    if (is(i, "auto") || is(i, "decltype") || is(i, "&"))
      fail("`" + name + "` lives across a barrier and is declared auto or as a reference", i);
  if (dc->paren_or_brace_init) fail("`" + name + "` lives across a barrier and is initialized with () or {}", s.first);
  if (dc->ptr_first != npos)
    for (std::size_t i = dc->ptr_first; i <= dc->ptr_last; ++i)
      if (is(i, "&") || is(i, "&&")) fail("`" + name + "` lives across a barrier and is a reference", i);
  if (dc->dims_first != npos && dc->init_first != npos)
    fail("the initialized array `" + name + "` lives across a barrier", s.first);
  std::string type;
  for (std::size_t i = d.type_first; i <= d.type_last; ++i) {
    if (is(i, "register") || is(i, "constexpr") || is(i, "__restrict__")) continue;
    type += tx(i) + " ";
  }
  if (dc->ptr_first != npos)
    for (std::size_t i = dc->ptr_first; i <= dc->ptr_last; ++i)
      if (!is(i, "__restrict__")) type += tx(i) + " ";
  std::string elem = "std::remove_cv_t<" + type + ">";
  if (dc->dims_first != npos) elem += std::string(v_.span_text(dc->dims_first, dc->dims_last));
  return line(s.first, quoted) + "::w64::rg::Lanes<" + elem + "> w64_v_" + name + "(w64_b);";
}

std::string Splitter::build(const std::vector<Stmt>& body, const std::string& quoted) {
  quoted_ = quoted;
  collect_declared(body);
  // the kernel's parameters are one copy for all lanes in region form: changed only by block steps
  find_param_steps(body);
  for (const std::string& p : params_) {
    std::size_t from = open_;
    for (const Stmt& s : body)
      if (block_steps_.count(&s)) {
        check_not_modified(p, from, s.first - 1);
        from = s.last + 1;
      }
    check_not_modified(p, from, close_);
  }

  walk(body, true);
  if (slots_ == 0 && nodes_.size() <= 1) fail("", open_);  // nothing to split: the plain loop serves

  // returns: only in the last region of the kernel, after every barrier
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    if (nodes_[k].kind != Node::Reg || !regions_[static_cast<std::size_t>(nodes_[k].region)].lambda) continue;
    if (k + 1 != nodes_.size()) fail("a return before a barrier or warp operation (the lane would stop early)", open_);
    int depth = 0;
    for (std::size_t m = 0; m < k; ++m)
      depth += nodes_[m].kind == Node::Open    ? (nodes_[m].head[0] == '}' ? 0 : 1)
               : nodes_[m].kind == Node::Close ? -1
                                               : 0;
    if (depth != 0) fail("a return inside a loop or if between barriers", open_);
  }

  // Which locals live across regions.
  std::map<std::string, const Stmt*> decl_of;
  const std::set<std::string> promoted = promoted_locals(decl_of);

  std::string r = " ::w64::rg::Block w64_b;";
  for (const Stmt* s : hoisted_) r += line(s->first, quoted) + std::string(v_.span_text(s->first, s->last));
  for (const std::string& name : promoted) r += lanes_declaration(name, *decl_of[name], quoted);
  for (int k = 0; k < slots_; ++k) r += " ::w64::rg::Slot w64_s" + std::to_string(k) + "(w64_b);";
  for (int k = 0; k < flags_; ++k) r += " ::w64::rg::Lanes<bool> w64_c" + std::to_string(k) + "(w64_b);";

  for (const Node& n : nodes_) {
    switch (n.kind) {
      case Node::Open: r += "\n" + n.head; break;
      case Node::Uni:
      case Node::Step: r += n.head; break;
      case Node::Close: r += "\n}"; break;
      case Node::Run:
        for (int k : n.slots) r += " w64_s" + std::to_string(k) + ".run();";
        break;
      case Node::Reg: {
        const Region& g = regions_[static_cast<std::size_t>(n.region)];
        r += "\nfor (unsigned w64_l = 0; w64_l < w64_b.n; ++w64_l) {";
        if (!g.guard.empty()) r += " if (!(" + g.guard + ")) continue;";
        r += " w64_b.lane(w64_l);";
        for (const std::string& name : promoted) {
          if (!g.names.count(name)) continue;
          // in registers within the region (rg::Own), unless its address is taken or an
          // in-place warp operation records it
          if (in_place_.count(name) || address_taken(name)) {
            r += " auto& " + name + " = w64_v_" + name + ".p[w64_l];";
          } else {
            r += " ::w64::rg::Own<decltype(w64_v_" + name + ")" + (may_write(g, name) ? "" : ", false") + "> w64_o_" +
                 name + "(w64_v_" + name + ", w64_l); auto& " + name + " = w64_o_" + name + ".v;";
          }
        }
        if (g.lambda) r += " [&]() {";
        for (const Piece& p : g.pieces) r += piece_text(p, promoted, quoted);
        if (g.lambda) r += "\n}();";
        r += "\n}";
        break;
      }
    }
  }
  return r + "\nreturn;";
}

}  // namespace ferry::wave64::regions
