#include "wave64/region_split.h"

namespace ferry::wave64::regions {

bool Splitter::has_barrier(const Stmt& s) const {
  for (std::size_t i = s.first; i <= s.last; ++i)
    if (is(i, "__syncthreads") || is(i, "__builtin_amdgcn_s_barrier") || is(i, "__syncthreads_count") ||
        is(i, "__syncthreads_and") || is(i, "__syncthreads_or") || (is(i, "sync") && is(i + 1, "(")))
      return true;
  return false;
}

bool Splitter::contains_sync(const Stmt& s) const {
  for (std::size_t i = s.first; i <= s.last; ++i)
    if (v_.is_identifier(i) && (sync_word(v_.text(i)) || (is(i, "sync") && is(i + 1, "(")))) return true;
  return !safe_(s.first, s.last, nullptr);
}

// `cg::sync(b);`, `b.sync();` for a thread_block b: a block barrier.
bool Splitter::block_sync(const Stmt& s) const {
  std::size_t i = s.first;
  if (v_.is_identifier(i) && block_names_.count(tx(i)) && is(i + 1, ".") && is(i + 2, "sync") && is(i + 3, "(") &&
      is(i + 4, ")") && i + 5 == s.last)
    return true;
  while (v_.is_identifier(i) && is(i + 1, "::")) i += 2;
  if (is(i, "::")) ++i;
  return is(i, "sync") && is(i + 1, "(") && v_.is_identifier(i + 2) && block_names_.count(tx(i + 2)) &&
         is(i + 3, ")") && i + 4 == s.last;
}

// Every lane computes code tokens [first, last] alike: parameters, uniform locals, constants,
// the built-ins of the block, math; no memory read, no threadIdx, no side effect.
bool Splitter::uniform_expr(std::size_t first, std::size_t last) const {
  for (std::size_t i = first; i <= last; ++i) {
    const std::string_view t = v_.text(i);
    if (is(i, "[") || is(i, "->") || is(i, "++") || is(i, "--") || is_assign_op(t)) return false;
    if ((is(i, "*") || is(i, "&")) &&
        (i == first || !(v_.is_identifier(i - 1) || v_.is_number(i - 1) || is(i - 1, ")") || is(i - 1, "]"))))
      return false;
    if (!v_.is_identifier(i) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) {
      if (v_.is_identifier(i) && is(i + 1, "(") && !safe_external_call(t) && t != "this_thread_block") return false;
      continue;
    }
    const std::string n(t);
    if (n == "threadIdx") return false;
    if (is(i + 1, "(")) {
      if (!safe_external_call(n) && !is_keyword_call(n)) return false;
      continue;
    }
    if (params_.count(n) || uniform_names_.count(n) || loop_vars_.count(n) || shared_arrays_.count(n)) continue;
    if (declared_anywhere_.count(n)) return false;
  }
  return true;
}

Region& Splitter::region() {
  if (cur_ < 0) {
    regions_.emplace_back();
    for (const std::string& p : preds_) regions_.back().guard += (regions_.back().guard.empty() ? "" : " && ") + p;
    cur_ = static_cast<int>(regions_.size()) - 1;
    Node n;
    n.kind = Node::Reg;
    n.region = cur_;
    nodes_.push_back(n);
  }
  return regions_[static_cast<std::size_t>(cur_)];
}

void Splitter::names_of(std::size_t first, std::size_t last, std::set<std::string>& into) const {
  for (std::size_t i = first; i <= last; ++i) {
    if (!v_.is_identifier(i) || v_.in_directive(i)) continue;
    if (v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
    into.insert(tx(i));
  }
}

// `return`, `break`, `continue` that would leave a region's lane loop; goto and labels.
void Splitter::check_escapes(const Stmt& s, bool in_loop, bool in_switch) const {
  switch (s.kind) {
    case SK::Break:
      if (!in_loop && !in_switch) fail("`break` out of a region", s.first);
      return;
    case SK::Continue:
      if (!in_loop) fail("`continue` out of a region", s.first);
      return;
    case SK::Other: fail("goto, a label or assembly", s.first);
    case SK::For:
    case SK::While:
    case SK::Do:
      for (const Stmt& k : s.kids) check_escapes(k, true, in_switch);
      return;
    case SK::Switch:
      for (const Stmt& k : s.kids) check_escapes(k, in_loop, true);
      return;
    default:
      for (const Stmt& k : s.kids) check_escapes(k, in_loop, in_switch);
      return;
  }
}

// A loop or if header between regions: every lane must compute it alike.
void Splitter::check_uniform(std::size_t first, std::size_t last, const std::set<std::string>& own) const {
  std::string why;
  if (!safe_(first, last, &why)) fail("a loop or if header between barriers calls " + why, first);
  for (std::size_t i = first; i <= last; ++i) {
    if (!v_.is_identifier(i) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
    const std::string n = tx(i);
    if (n == "threadIdx") fail("a loop or if header between barriers reads threadIdx", i);
    if (own.count(n) || loop_vars_.count(n) || hoisted_names_.count(n) || uniform_names_.count(n)) continue;
    if (declared_anywhere_.count(n))
      fail("a loop or if header between barriers reads the local `" + n + "` (lanes may differ)", i);
    if (is(i + 1, "(") && !safe_external_call(n) && !is_keyword_call(n))
      fail("a loop or if header between barriers calls " + n + "()", i);
  }
}

// `name` is not assigned, incremented or has its address taken in code tokens [first, last].
void Splitter::check_not_modified(const std::string& name, std::size_t first, std::size_t last) const {
  for (std::size_t i = first; i <= last; ++i) {
    if (!is(i, name) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
    const bool after = i + 1 <= last + 1 && (is_assign_op(v_.text(i + 1)) || is(i + 1, "++") || is(i + 1, "--"));
    const bool before = i > 0 && (is(i - 1, "++") || is(i - 1, "--"));
    bool address = false;
    if (i > 0 && is(i - 1, "&")) {
      const std::size_t p = i - 1;
      // `&name`, not `&name[i]` or `&name->f` (an element's address: the pointer itself is not changed)
      address = (p == 0 || !(v_.is_identifier(p - 1) || v_.is_number(p - 1) || is(p - 1, ")") || is(p - 1, "]"))) &&
                !is(i + 1, "[") && !is(i + 1, "->");
    }
    if (after || before || address) fail("`" + name + "` is shared by the lanes in region form and is changed here", i);
  }
}

// The name a declaration of the driver's pointer to dynamic shared memory declares (transform.h:
// `T* const n = reinterpret_cast<T*>(::w64::dynamic_shared());`, or for rows
// `T (* const n)[N] = ...`); empty for any other statement.
std::string Splitter::dynamic_shared_pointer(const Stmt& s) const {
  bool dyn = false;
  for (std::size_t i = s.first + 2; i + 2 <= s.last && !dyn; ++i)
    dyn = is(i, "dynamic_shared") && is(i - 1, "::") && is(i - 2, "w64") && is(i + 1, "(") && is(i + 2, ")");
  if (!dyn) return {};
  if (auto d = as_decl(s); d && d->ds.size() == 1) return tx(d->ds[0].name);
  for (std::size_t i = s.first; i + 4 <= s.last; ++i)
    if (is(i, "(") && is(i + 1, "*") && is(i + 2, "const") && v_.is_identifier(i + 3) && is(i + 4, ")"))
      return tx(i + 3);
  return {};
}

// A statement every lane runs alike whose effect is the block's, run once between regions:
// `if (u) break;` and `if (u) continue;` in a split loop, `u` computed alike by every lane (the
// lanes leave the loop together, as they do on the fiber path); `param op= u;` at the body's top
// level (find_param_steps).
bool Splitter::block_step(const Stmt& s) {
  if (!preds_.empty()) return false;
  if (block_steps_.count(&s)) {
    if (!uniform_expr(s.first + 2, s.last - 1))
      fail("the parameter `" + tx(s.first) + "` is changed by a value that differs between lanes", s.first);
  } else if (s.kind == SK::If && !s.has_else && loop_depth_ > 0 && s.hclose > s.hopen + 1) {
    const Stmt* body = &s.kids[0];
    if (body->kind == SK::Compound && body->kids.size() == 1) body = &body->kids[0];
    if (body->kind != SK::Break && body->kind != SK::Continue) return false;
    if (!uniform_expr(s.hopen + 1, s.hclose - 1)) return false;
  } else {
    return false;
  }
  close_region();
  Node n;
  n.kind = Node::Step;
  n.head = line(s.first, quoted_) + std::string(v_.span_text(s.first, s.last));
  nodes_.push_back(n);
  return true;
}

// `param op= e;` statements of the body's top level, `e` with no side effect: the parameter is
// one copy for all lanes in region form, so the statement runs once (block_step).
void Splitter::find_param_steps(const std::vector<Stmt>& body) {
  for (const Stmt& s : body) {
    if (s.kind != SK::Simple || !v_.is_identifier(s.first) || !params_.count(tx(s.first))) continue;
    if (!is_assign_op(v_.text(s.first + 1)) || s.first + 2 >= s.last) continue;
    bool pure = true;
    for (std::size_t i = s.first + 2; i < s.last && pure; ++i)
      pure = !(is_assign_op(v_.text(i)) || is(i, "++") || is(i, "--"));
    if (pure) block_steps_.insert(&s);
  }
}

// The names in statement `s` that only ever name locals declared inside it: every use stands
// after such a declaration, within its scope. They do not live across regions.
std::set<std::string> Splitter::inner_locals(const Stmt& s) const {
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> cover;  // name -> [decl, scope end]
  std::function<void(const Stmt&, std::size_t)> visit = [&](const Stmt& k, std::size_t end) {
    if (k.kind == SK::Simple)
      if (auto d = decl_of_stmt(v_, k))
        for (const Declarator& dc : d->ds) cover[tx(dc.name)].push_back({k.first, end});
    if (k.kind == SK::For)
      if (auto d = for_init_decl(v_, k))
        for (const Declarator& dc : d->ds) cover[tx(dc.name)].push_back({k.hopen, k.last});
    for (const Stmt& kid : k.kids) visit(kid, k.kind == SK::Compound ? k.last : kid.last);
  };
  for (const Stmt& kid : s.kids) visit(kid, s.kind == SK::Compound ? s.last : kid.last);
  if (s.kind == SK::For)
    if (auto d = for_init_decl(v_, s))
      for (const Declarator& dc : d->ds) cover[tx(dc.name)].push_back({s.hopen, s.last});
  std::set<std::string> out;
  for (const auto& [name, ranges] : cover) {
    bool inner = true;
    for (std::size_t i = s.first; i <= s.last && inner; ++i) {
      if (!is(i, name) || member_or_scoped(v_, i)) continue;
      bool in = false;
      for (const auto& [a, b] : ranges) in = in || (a <= i && i <= b);
      inner = in;
    }
    if (inner) out.insert(name);
  }
  return out;
}

void Splitter::add_plain(const Stmt& s) {
  Region& r = region();
  Piece p;
  p.kind = Piece::Stmt;
  p.s = &s;
  r.pieces.push_back(p);
  if (s.kind == SK::Simple) {
    names_of(s.first, s.last, r.names);
  } else {
    std::set<std::string> names;
    names_of(s.first, s.last, names);
    for (const std::string& n : inner_locals(s)) names.erase(n);
    r.names.insert(names.begin(), names.end());
  }
  if (auto d = as_decl(s))
    for (const Declarator& dc : d->ds) decls_[tx(dc.name)].push_back({&s, cur_});
}

void Splitter::walk(const std::vector<Stmt>& list, bool /*top*/) {
  for (const Stmt& s : list) {
    if (s.kind == SK::Directive) {
      if (!is(s.first + 1, "pragma")) fail("a preprocessor directive inside the kernel", s.first);
      continue;  // #pragma unroll and kin: hints, dropped from the region form
    }
    const bool sync = contains_sync(s);
    if (!sync && block_step(s)) continue;
    // The barrier statements: `__syncthreads();`
    if (s.kind == SK::Simple && block_sync(s)) {
      if (!preds_.empty()) fail("a barrier under a condition that differs between lanes", s.first);
      close_region();
      continue;
    }
    if (s.kind == SK::Simple && v_.is_identifier(s.first) && kBarriers.count(v_.text(s.first)) &&
        is(s.first + 1, "(") && v_.match_bracket(s.first + 1) + 1 == s.last) {
      if (!preds_.empty() && (is(s.first, "__syncthreads") || is(s.first, "__builtin_amdgcn_s_barrier")))
        fail("a barrier under a condition that differs between lanes", s.first);
      if (is(s.first, "__syncwarp") && !is(s.first + 2, ")")) {
        // __syncwarp(mask): the mask is checked per lane, as on the fiber path
        OpUse op{s.first, s.first + 1, s.last - 1, slots_++, s.first};
        Piece put;
        put.kind = Piece::Put;
        put.ops.push_back(op);
        region().pieces.push_back(put);
        names_of(s.first, s.last, region().names);
        close_region();
        Node n;
        n.kind = Node::Run;
        n.slots = {op.slot};
        nodes_.push_back(n);
        continue;
      }
      close_region();
      continue;
    }
    if (!sync) {
      if (s.kind == SK::Simple) {
        // __shared__ and constant locals go before the regions (one object, computed once)
        bool shared = false;
        for (std::size_t i = s.first; i <= s.last; ++i) shared = shared || is(i, "__shared__");
        if (shared) {
          // static storage: the same object wherever it is declared, so it moves before the
          // regions (names must then be distinct: inlined functions' are prefixed)
          auto d = as_decl(s);
          if (!d) fail("a __shared__ declaration the region pass does not read", s.first);
          for (const Declarator& dc : d->ds) {
            if (hoisted_names_.count(tx(dc.name)))
              fail("two __shared__ declarations named `" + tx(dc.name) + "`", s.first);
            hoisted_names_.insert(tx(dc.name));
            shared_names_.insert(tx(dc.name));
            if (dc.dims_first != npos) shared_arrays_.insert(tx(dc.name));
          }
          // An extent from a local declared once before it (rocm-examples' moving_average:
          // `constexpr unsigned buffer_size = ...; __shared__ unsigned buffer[buffer_size];`):
          // declared between regions after that local, not before the regions.
          bool needs_uniform = false;
          for (std::size_t i = s.first; i <= s.last; ++i)
            needs_uniform = needs_uniform || (v_.is_identifier(i) && uniform_names_.count(tx(i)));
          if (needs_uniform && preds_.empty()) {
            Node u;
            u.kind = Node::Uni;
            u.head = line(s.first, quoted_) + std::string(v_.span_text(s.first, s.last));
            bool placed = false;
            if (cur_ >= 0)
              for (std::size_t k = 0; k < nodes_.size() && !placed; ++k)
                if (nodes_[k].kind == Node::Reg && nodes_[k].region == cur_) {
                  nodes_.insert(nodes_.begin() + static_cast<std::ptrdiff_t>(k), u);
                  placed = true;
                }
            if (!placed) nodes_.push_back(u);
            continue;
          }
          hoisted_.push_back(&s);
          continue;
        }
        if (const std::string dyn = dynamic_shared_pointer(s); !dyn.empty()) {
          // the driver's `T* const n = ...(::w64::dynamic_shared());` (from `extern __shared__`):
          // the block's dynamic shared memory, the same address for every lane
          if (hoisted_names_.count(dyn)) fail("two __shared__ declarations named `" + dyn + "`", s.first);
          hoisted_names_.insert(dyn);
          shared_names_.insert(dyn);
          shared_arrays_.insert(dyn);
          hoisted_.push_back(&s);
          continue;
        }
        for (std::size_t i = s.first; i <= s.last; ++i)
          if (is(i, "static") || is(i, "typedef") || is(i, "using") || is(i, "thread_local") || is(i, "class") ||
              is(i, "enum") || is(i, "union"))
            fail("a static, typedef, using or type declaration in the kernel body", i);
        if (auto d = as_decl(s); d && preds_.empty() && d->ds.size() == 1) {
          // a local every lane computes alike and never changes: one copy, declared between regions
          const Declarator& dc = d->ds[0];
          bool uniform = dc.init_first != npos && dc.dims_first == npos && !dc.paren_or_brace_init;
          for (std::size_t i = d->type_first; uniform && i <= d->type_last; ++i)
            uniform = !is(i, "&") && !is(i, "auto") && !is(i, "decltype");
          if (uniform && dc.ptr_first != npos)
            for (std::size_t i = dc.ptr_first; uniform && i <= dc.ptr_last; ++i) uniform = !is(i, "&") && !is(i, "&&");
          const std::string name = tx(dc.name);
          if (uniform)
            uniform = uniform_expr(dc.init_first, dc.init_last) && !decls_.count(name) && !uniform_names_.count(name);
          if (uniform) {
            try {
              check_not_modified(name, s.last + 1, close_);
            } catch (const Fail&) {
              uniform = false;
            }
          }
          if (uniform) {
            Node u;
            u.kind = Node::Uni;
            u.head = line(s.first, quoted_) + std::string(v_.span_text(s.first, s.last));
            if (cur_ >= 0) {
              // before the region being filled (its code does not depend on it)
              for (std::size_t k = 0; k < nodes_.size(); ++k)
                if (nodes_[k].kind == Node::Reg && nodes_[k].region == cur_) {
                  nodes_.insert(nodes_.begin() + static_cast<std::ptrdiff_t>(k), u);
                  break;
                }
            } else {
              nodes_.push_back(u);
            }
            uniform_names_.insert(name);
            for (std::size_t i = d->type_first; i <= d->type_last; ++i)
              if (is(i, "thread_block")) block_names_.insert(name);
            continue;
          }
        }
      }
      if (s.kind == SK::Compound || s.kind == SK::If || s.kind == SK::For || s.kind == SK::While || s.kind == SK::Do ||
          s.kind == SK::Switch || s.kind == SK::Simple || s.kind == SK::Empty) {
        std::string why;
        if (!safe_(s.first, s.last, &why)) fail("a statement calls " + why, s.first);
        check_escapes(s, false, false);
      }
      if (s.kind == SK::Break || s.kind == SK::Continue || s.kind == SK::Other)
        fail("break, continue or goto between barriers", s.first);
      if (chunk_loop(s)) continue;
      if (s.kind == SK::Return) {
        // only after the last barrier of the kernel (checked when the walk is over)
        region().lambda = true;
      }
      add_plain(s);
      if (s.kind != SK::Simple && s.kind != SK::Return) {
        // returns nested in it make the region a lambda
        std::vector<const Stmt*> todo = {&s};
        while (!todo.empty()) {
          const Stmt* t = todo.back();
          todo.pop_back();
          if (t->kind == SK::Return) region().lambda = true;
          for (const Stmt& k : t->kids) todo.push_back(&k);
        }
      }
      continue;
    }
    // A statement with a barrier or warp operation in it.
    if (s.kind == SK::Compound) {
      walk(s.kids, false);
      continue;
    }
    if (s.kind == SK::For || s.kind == SK::While || s.kind == SK::If) {
      std::set<std::string> own;
      std::size_t hfirst = s.hopen + 1, hlast = s.hclose - 1;
      if (s.kind == SK::For) {
        // `for (T v = init; cond; step)`: v is the loop's own (computed alike by every lane)
        if (auto d = for_init_decl(v_, s)) {
          for (const Declarator& dc : d->ds) {
            own.insert(tx(dc.name));
            check_not_modified(tx(dc.name), s.kids[0].first, s.kids[0].last);
          }
        }
      }
      if (s.kind == SK::If && hlast >= hfirst) {
        std::string why;
        if (!safe_(hfirst, hlast, &why)) fail("an if condition calls " + why, hfirst);
        bool uniform = true;
        try {
          check_uniform(hfirst, hlast, own);
        } catch (const Fail& f) {
          uniform = false;
          why = f.why;
        }
        if (!uniform) {
          lane_condition(s, hfirst, hlast);
          continue;
        }
      } else if (hlast >= hfirst) {
        check_uniform(hfirst, hlast, own);
      }
      for (const std::string& n : own) {
        if (loop_vars_.count(n) || params_.count(n) || hoisted_names_.count(n))
          fail("the loop variable `" + n + "` shadows another name", s.first);
        all_loop_vars_.insert(n);
      }
      close_region();
      Node o;
      o.kind = Node::Open;
      o.head = std::string(s.kind == SK::For     ? "for "
                           : s.kind == SK::While ? "while "
                                                 : "if ") +
               std::string(v_.span_text(s.hopen, s.hclose)) + " {";
      if (s.kind == SK::If && is(s.first + 1, "constexpr")) o.head = "if constexpr " + o.head.substr(3);
      nodes_.push_back(o);
      for (const std::string& n : own) loop_vars_.insert(n);
      const std::vector<Stmt>& b = s.kids[0].kind == SK::Compound ? s.kids[0].kids : one(s.kids[0]);
      // loops: a break or continue of this loop at statement level would leave the lane loop
      // (one under a condition every lane computes alike is a block step)
      if (s.kind != SK::If) ++loop_depth_;
      walk(b, false);
      if (s.kind != SK::If) --loop_depth_;
      close_region();
      if (s.kind == SK::If && s.has_else) {
        Node e;
        e.kind = Node::Open;
        e.head = "} else {";
        nodes_.push_back(e);
        walk(s.kids[1].kind == SK::Compound ? s.kids[1].kids : one(s.kids[1]), false);
        close_region();
      }
      for (const std::string& n : own) loop_vars_.erase(n);
      Node c;
      c.kind = Node::Close;
      nodes_.push_back(c);
      continue;
    }
    if (s.kind != SK::Simple) fail("a barrier or warp operation inside a do, switch or return", s.first);
    split_at_warp_ops(s);
  }
}

// An `if` whose condition differs between lanes, with warp operations inside: they run for the
// lanes that took the branch (their active mask), as on the fiber path; a barrier there is not split.
void Splitter::lane_condition(const Stmt& s, std::size_t hfirst, std::size_t hlast) {
  if (has_barrier(s)) fail("a barrier under a condition that differs between lanes", s.first);
  const std::string flag = "w64_c" + std::to_string(flags_++);
  Piece p;
  p.kind = Piece::Text;
  p.at = hfirst;
  p.last = hlast;
  p.text = flag + ".p[w64_l] = (" + std::string(v_.span_text(hfirst, hlast)) + ");";
  region().pieces.push_back(p);
  names_of(hfirst, hlast, region().names);
  close_region();
  preds_.push_back(flag + ".p[w64_l]");
  walk(s.kids[0].kind == SK::Compound ? s.kids[0].kids : one(s.kids[0]), false);
  close_region();
  preds_.pop_back();
  if (s.has_else) {
    preds_.push_back("!" + flag + ".p[w64_l]");
    walk(s.kids[1].kind == SK::Compound ? s.kids[1].kids : one(s.kids[1]), false);
    close_region();
    preds_.pop_back();
  }
}

// A simple statement with warp operations: split it at them (put, run, take).
void Splitter::split_at_warp_ops(const Stmt& s) {
  std::vector<OpUse> ops;
  for (std::size_t i = s.first; i <= s.last; ++i) {
    if (!v_.is_identifier(i)) continue;
    const std::string_view n = v_.text(i);
    if (!sync_word(n)) continue;
    if (!kWarpOps.count(n)) fail(std::string(n) + " is not split (only shuffles and votes are)", i);
    // `wmma::mma_sync(...)`, `nvcuda::wmma::mma_sync(...)`, `rocwmma::mma_sync(...)`
    const std::size_t qf = qualified_first(v_, i);
    const bool wmma_call = qf != i && in_place_op(n) && v_.is_identifier(qf) && wmma_namespace(v_.text(qf));
    if (v_.is_member_name(i) || (i > 0 && is(i - 1, "::") && !wmma_call) || !is(i + 1, "("))
      fail("a warp operation's form", i);
    OpUse op{i, i + 1, v_.match_bracket(i + 1), 0, wmma_call ? qf : i};
    // its operands are read and written where they are: locals among them live in per-lane arrays
    if (in_place_op(n)) names_of(op.open + 1, op.close - 1, in_place_);
    for (std::size_t k = op.open + 1; k < op.close; ++k)
      if (v_.is_identifier(k) && sync_word(v_.text(k))) fail("nested warp operations", k);
    ops.push_back(op);
    i = op.close;
  }
  for (std::size_t i = s.first; i <= s.last; ++i)
    if (is(i, "?") || is(i, "&&") || is(i, "||") || is(i, "[")) {
      if (is(i, "[")) {
        // a lambda in the statement (`[&](...)`) could hold anything: not split
        if (i == s.first || is(i - 1, "=") || is(i - 1, "(") || is(i - 1, ","))
          fail("a lambda next to a warp operation", i);
        continue;
      }
      fail("a warp operation in a statement that evaluates conditionally (?:, &&, ||)", i);
    }
  std::string why;
  {
    // the rest of the statement must be safe
    std::size_t from = s.first;
    for (const OpUse& op : ops) {
      if (op.first > from && !safe_(from, op.first - 1, &why)) fail("a statement calls " + why, from);
      from = op.close + 1;
    }
    if (from <= s.last && !safe_(from, s.last, &why)) fail("a statement calls " + why, from);
    for (const OpUse& op : ops)
      if (op.close > op.open + 1 && !safe_(op.open + 1, op.close - 1, &why))
        fail("a warp operation's argument calls " + why, op.open);
  }
  for (OpUse& op : ops) op.slot = slots_++;
  Piece put;
  put.kind = Piece::Put;
  for (const OpUse& o : ops) put.ops.push_back(o);
  put.s = &s;
  Region& a = region();
  a.pieces.push_back(put);
  for (const OpUse& op : ops) names_of(op.open, op.close, a.names);
  close_region();
  Node n;
  n.kind = Node::Run;
  for (const OpUse& op : ops) n.slots.push_back(op.slot);
  nodes_.push_back(n);
  // `OP(args);` alone needs nothing after the run
  if (ops.size() == 1 && ops[0].first == s.first && ops[0].close + 1 == s.last) return;
  Piece take;
  take.kind = Piece::Take;
  for (const OpUse& o : ops) take.ops.push_back(o);
  take.s = &s;
  Region& b = region();
  b.pieces.push_back(take);
  names_of(s.first, s.last, b.names);
  if (auto d = as_decl(s))
    for (const Declarator& dc : d->ds) decls_[tx(dc.name)].push_back({&s, cur_});
}

}  // namespace ferry::wave64::regions
