// Per-lane accumulation loops in region form (docs/wave64.md, "Speed"): a loop whose header every
// lane computes alike and whose body only adds into locals (`for (int k = 0; k < N; ++k) sum +=
// in[i + k * B];`) runs in chunks of iterations, each chunk a loop over the lanes. Each lane then
// runs its own iterations in its own order, as on the fiber path, but the lanes' dependency
// chains interleave: a CPU core overlaps them instead of waiting on one lane's chain.
#include <set>
#include <string>
#include <string_view>

#include "wave64/region_split.h"

namespace ferry::wave64::regions {
// A call an accumulation loop may make: math and loads without side effects.
bool pure_call(std::string_view n) {
  static const std::set<std::string_view> impure = {"printf", "assert",  "memcpy", "memset", "clock64",
                                                    "sincos", "sincosf", "frexp",  "frexpf", "modff"};
  if (impure.count(n) || !safe_external_call(n) || n.starts_with("atomic")) return false;
  for (std::string_view p : {"__threadfence", "__nanosleep", "__trap", "__st", "__prof", "__brkpt", "__assert",
                             "__atomic", "__hip_atomic", "__builtin", "__sync"})
    if (n.starts_with(p)) return false;
  return true;
}

// Code tokens [first, last] compute a value with no side effect: no assignment, no increment, no
// call other than pure ones, no lambda.
bool Splitter::pure_expr(std::size_t first, std::size_t last) const {
  for (std::size_t i = first; i <= last && i != npos; ++i) {
    const std::string_view t = v_.text(i);
    if (v_.in_directive(i) || is_assign_op(t) || t == "++" || t == "--") return false;
    if (t == "new" || t == "delete" || t == "throw" || t == "asm" || t == "__asm__" || t == "static") return false;
    if (t == "[" && (i == first || is(i - 1, "=") || is(i - 1, "(") || is(i - 1, ",") || is(i - 1, "return")))
      return false;
    if (t != "(" || i == first) continue;
    // a call: `name(`, `std::name(`, `static_cast<T>(`
    const std::size_t f = i - 1;
    if (is(f, ">")) {
      bool cast = false;
      for (std::size_t j = f; j > first && j + 8 > f && !cast; --j)
        cast = is(j, "<") && (is(j - 1, "static_cast") || is(j - 1, "reinterpret_cast") || is(j - 1, "const_cast"));
      if (!cast) return false;
      continue;
    }
    if (!v_.is_identifier(f)) continue;  // a parenthesised expression
    const std::string_view n = v_.text(f);
    if (v_.is_member_name(f)) return false;  // a member function may change its object
    if (f > 0 && is(f - 1, "::") && !(f >= 2 && is(f - 2, "std"))) return false;
    if (!pure_call(n) && !is_keyword_call(n) && !n.starts_with("make_")) return false;
  }
  return true;
}

// Statement `s` of an accumulation loop's body writes nothing but locals of the kernel (no
// memory), calls nothing with a side effect, and leaves only at its end. `carried`: the locals it
// updates from their own value (`x op= e`, `++x`, `x = f(x)`); `written`: every local it assigns.
bool Splitter::lane_local(const Stmt& s, std::set<std::string>& written, std::set<std::string>& carried) const {
  switch (s.kind) {
    case SK::Empty: return true;
    case SK::Compound:
      for (const Stmt& k : s.kids)
        if (!lane_local(k, written, carried)) return false;
      return true;
    case SK::If:
      if (!pure_expr(s.hopen + 1, s.hclose - 1)) return false;
      for (const Stmt& k : s.kids)
        if (!lane_local(k, written, carried)) return false;
      return true;
    case SK::For: {
      // a nested loop: its own variable may change in its step
      std::size_t semi = s.hopen + 1;
      while (semi < s.hclose && !is(semi, ";")) ++semi;
      std::set<std::string> own;
      if (semi > s.hopen + 1) {
        auto d = for_init_decl(v_, s);
        if (!d) return false;
        for (const Declarator& dc : d->ds) {
          if (dc.init_first == npos || dc.dims_first != npos || !pure_expr(dc.init_first, dc.init_last)) return false;
          own.insert(tx(dc.name));
        }
      }
      for (std::size_t i = semi + 1; i < s.hclose; ++i) {
        const bool w = is_assign_op(v_.text(i)) || is(i, "++") || is(i, "--");
        if (!w) continue;
        const std::size_t id = is(i, "++") || is(i, "--") ? (v_.is_identifier(i - 1) ? i - 1 : i + 1) : i - 1;
        if (!v_.is_identifier(id) || !own.count(tx(id)) || member_or_scoped(v_, id)) return false;
      }
      for (std::size_t i = semi + 1; i < s.hclose; ++i)
        if (v_.is_identifier(i) && is(i + 1, "(") && !pure_call(v_.text(i)) && !is_keyword_call(v_.text(i)))
          return false;
      return lane_local(s.kids[0], written, carried);
    }
    case SK::Simple: break;
    default: return false;
  }
  for (std::size_t i = s.first; i <= s.last; ++i)
    if (is(i, "__shared__") || is(i, "static") || is(i, "extern") || v_.in_directive(i)) return false;
  if (auto d = as_decl(s)) {
    for (std::size_t i = d->type_first; i <= d->type_last; ++i)
      if (is(i, "&") || is(i, "&&")) return false;
    for (const Declarator& dc : d->ds) {
      if (dc.ptr_first != npos)
        for (std::size_t i = dc.ptr_first; i <= dc.ptr_last; ++i)
          if (is(i, "&") || is(i, "&&")) return false;
      if (dc.paren_or_brace_init) return false;
      if (dc.init_first != npos && !pure_expr(dc.init_first, dc.init_last)) return false;
    }
    return true;
  }
  // `x op= e;`, `x.f op= e;`, `x = e;`, `++x;`, `x++;`
  std::size_t id = s.first, after;
  if (is(id, "++") || is(id, "--")) {
    ++id;
    after = id + 1;
  } else {
    after = id + 1;
    while (is(after, ".") && v_.is_identifier(after + 1)) after += 2;
  }
  if (!v_.is_identifier(id) || member_or_scoped(v_, id)) return false;
  const std::string name = tx(id);
  if (!declared_anywhere_.count(name) || params_.count(name) || shared_names_.count(name) ||
      hoisted_names_.count(name) || uniform_names_.count(name) || loop_vars_.count(name))
    return false;
  written.insert(name);
  if (is(s.first, "++") || is(s.first, "--")) return after == s.last;
  if ((is(after, "++") || is(after, "--")) && after + 1 == s.last) {
    carried.insert(name);
    return true;
  }
  if (!is_assign_op(v_.text(after)) || after + 1 >= s.last || !pure_expr(after + 1, s.last - 1)) return false;
  bool reads_itself = !is(after, "=");
  for (std::size_t i = after + 1; i < s.last && !reads_itself; ++i)
    reads_itself = is(i, name) && !member_or_scoped(v_, i);
  if (reads_itself) carried.insert(name);
  return true;
}

// The loop `s` (no barrier or warp operation in it) as chunks of iterations, each a region:
//   for (T k = init; cond; ) { const auto w64_fN = k;                         (once for the block)
//     for (lanes) { { T k = w64_fN; for (unsigned w64_j = 0; w64_j < kChunk && (cond); ++w64_j, (step)) body } }
//     for (unsigned w64_j = 0; w64_j < kChunk && (cond); ++w64_j, (step)) {}  (k moves on a chunk)
//   }
// when its header is lane-uniform with one variable of its own that only the step changes, and
// its body is lane_local with a carried local. False: not such a loop (nothing is changed).
bool Splitter::chunk_loop(const Stmt& s) {
  if (!chunk_loops_ || s.kind != SK::For || !preds_.empty() || s.kids.empty()) return false;
  std::size_t semi1 = s.hopen + 1;
  while (semi1 < s.hclose && !is(semi1, ";")) ++semi1;
  std::size_t semi2 = semi1 + 1;
  while (semi2 < s.hclose && !is(semi2, ";")) {
    if (is(semi2, "(") || is(semi2, "[") || is(semi2, "{")) semi2 = v_.match_bracket(semi2);
    if (semi2 == npos) return false;
    ++semi2;
  }
  if (semi2 >= s.hclose || semi2 == semi1 + 1 || semi2 + 1 == s.hclose) return false;  // no condition or step
  auto d = for_init_decl(v_, s);
  if (!d || d->ds.size() != 1) return false;
  const Declarator& dc = d->ds[0];
  if (dc.init_first == npos || dc.dims_first != npos || dc.paren_or_brace_init || dc.ptr_first != npos) return false;
  const std::string own = tx(dc.name);
  if (loop_vars_.count(own) || params_.count(own) || hoisted_names_.count(own) || uniform_names_.count(own))
    return false;
  try {
    check_uniform(s.hopen + 1, s.hclose - 1, {own});
    check_not_modified(own, s.kids[0].first, s.kids[0].last);
  } catch (const Fail&) {
    return false;
  }
  // the step changes the loop's variable only
  for (std::size_t i = semi2 + 1; i < s.hclose; ++i) {
    if (!v_.is_identifier(i) || member_or_scoped(v_, i) || is(i, own)) continue;
    if (is_assign_op(v_.text(i + 1)) || is(i + 1, "++") || is(i + 1, "--") || is(i - 1, "++") || is(i - 1, "--"))
      return false;
  }
  std::set<std::string> written, carried;
  if (!lane_local(s.kids[0], written, carried)) return false;
  const std::set<std::string> inner = inner_locals(s);
  bool accumulates = false;
  for (const std::string& n : carried) accumulates = accumulates || !inner.count(n);
  if (!accumulates) return false;

  const std::string n = std::to_string(chunks_++), var = "w64_f" + n, count = "w64_n" + n;
  const std::string cond(v_.span_text(semi1 + 1, semi2 - 1)), step(v_.span_text(semi2 + 1, s.hclose - 1));
  const std::string body(v_.span_text(s.kids[0].first, s.kids[0].last));
  all_loop_vars_.insert(own);
  close_region();
  // once for the block: where this chunk starts, how many iterations it has; the loop's variable
  // moves past them
  Node o;
  o.kind = Node::Open;
  o.head = line(s.first, quoted_) + "for (" + std::string(v_.span_text(s.hopen + 1, semi2)) + ") { const auto " + var +
           " = " + own + "; unsigned " + count + " = 0; for (; " + count + " < ::w64::rg::kChunk && (" + cond +
           "); ++" + count + ", (" + step + ")) {}";
  nodes_.push_back(o);
  // each lane: the chunk's iterations (a whole chunk unrolled)
  Piece p;
  p.kind = Piece::Text;
  p.at = s.first;
  p.last = s.last;
  p.text = "{ " + std::string(v_.span_text(d->type_first, dc.name - 1)) + " " + own + " = " + var + "; if (" + count +
           " == ::w64::rg::kChunk) { _Pragma(\"GCC unroll 16\") for (unsigned w64_j = 0; w64_j < ::w64::rg::kChunk; "
           "++w64_j, (" +
           step + ")) " + body + " } else { for (unsigned w64_j = 0; w64_j < " + count + "; ++w64_j, (" + step + ")) " +
           body + " } }";
  Region& r = region();
  r.pieces.push_back(p);
  std::set<std::string> names;
  names_of(s.first, s.last, names);
  for (const std::string& n : inner) names.erase(n);
  names.erase(own);
  r.names.insert(names.begin(), names.end());
  close_region();
  Node c;
  c.kind = Node::Close;
  nodes_.push_back(c);
  return true;
}

}  // namespace ferry::wave64::regions
