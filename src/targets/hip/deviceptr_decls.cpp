// The project-wide half of the integer-handle pass: which names each translation unit declares
// with a handle type, in the file and in the tree headers it includes (deviceptr_decls.h).
#include "targets/hip/deviceptr_decls.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace deviceptr {

using lex::npos;

constexpr IntegerHandle kHandles[] = {
    {"hipDeviceptr_t", "a CUdeviceptr", "a void*", true, {"CUdeviceptr", "CUdeviceptr_v2", "CUdeviceptr_v1"}},
    {"hipTextureObject_t",
     "a texture object",
     "a pointer",
     false,
     {"cudaTextureObject_t", "CUtexObject", "CUtexObject_v1"}},
    {"hipSurfaceObject_t",
     "a surface object",
     "a pointer",
     false,
     {"cudaSurfaceObject_t", "CUsurfObject", "CUsurfObject_v1"}},
};

// The handle whose type name (CUDA's, or HIP's) is the token at `ci`, or null.
const IntegerHandle* handle_at(const lex::CodeView& v, std::size_t ci, Spelling spelling) {
  if (!v.is_identifier(ci)) return nullptr;
  for (const IntegerHandle& h : kHandles) {
    if (spelling == Spelling::Hip) {
      if (v.is(ci, h.hip)) return &h;
      continue;
    }
    for (std::string_view n : h.cuda)
      if (v.is(ci, n)) return &h;
  }
  return nullptr;
}
bool is_handle_type(const lex::CodeView& v, std::size_t ci, Spelling spelling) {
  return handle_at(v, ci, spelling) != nullptr;
}
std::vector<std::uint32_t> handle_type_names(const lex::CodeView& v) {
  std::vector<std::string_view> names;
  for (const IntegerHandle& h : kHandles) names.insert(names.end(), std::begin(h.cuda), std::end(h.cuda));
  return v.occurrences(names);
}

// The handle whose HIP type is `hip`, or null.
const IntegerHandle* handle_named(std::string_view hip) {
  for (const IntegerHandle& h : kHandles)
    if (h.hip == hip) return &h;
  return nullptr;
}

// Whether `text` names any handle type (a cheap test before lexing a file).
bool mentions_handle(std::string_view text) {
  for (const IntegerHandle& h : kHandles)
    for (std::string_view n : h.cuda)
      if (text.find(n) != std::string_view::npos) return true;
  return false;
}

// An operand ends at code token `ci` (so a `+`, `-`, `*`, `&` after it is binary).
bool ends_operand(const lex::CodeView& v, std::size_t ci) {
  if (ci >= v.code_size()) return false;
  const lex::Kind k = v.code(ci).kind;
  if (k == lex::Kind::Identifier) return !is_expression_keyword(v.text(ci));
  if (k == lex::Kind::Number || k == lex::Kind::String || k == lex::Kind::Char) return true;
  return v.is(ci, ")") || v.is(ci, "]");
}

// The operator at `ci` is binary: an operand ends before it (a cast's `)` does not: `(void *)&x`).
bool is_binary_at(const lex::CodeView& v, std::size_t ci) {
  return ci > 0 && ends_operand(v, ci - 1) && !(v.is(ci - 1, ")") && is_cast_paren(v, ci - 1));
}

// The `)` at `close` ends a C cast `(T)` (of what follows it): the group holds a type (it ends in
// a name, `*` or `&`) and nothing before it makes it a call, a condition or an operand.
bool is_cast_paren(const lex::CodeView& v, std::size_t close) {
  const std::size_t open = v.partner(close);
  if (open == lex::npos || open + 1 >= close || !v.is(close, ")")) return false;
  if (!(v.is_identifier(close - 1) || v.is(close - 1, "*") || v.is(close - 1, "&"))) return false;
  if (open == 0) return true;
  const std::size_t p = open - 1;
  if (v.is(p, "if") || v.is(p, "while") || v.is(p, "for") || v.is(p, "switch") || v.is(p, "sizeof") ||
      v.is(p, "alignof") || v.is(p, "decltype"))
    return false;
  return !ends_operand(v, p) && !v.is(p, ">");
}

// The declarator after a CUdeviceptr type word at `ci`: returns the name's code index (npos when
// none) and whether it is a pointer or array.
std::size_t declarator_at(const lex::CodeView& v, std::size_t j, bool& pointer) {
  std::size_t stars = 0;
  while (v.is(j, "const") || v.is(j, "volatile") || v.is(j, "*") || v.is(j, "&") || v.is(j, "__restrict__")) {
    if (v.is(j, "*")) ++stars;
    ++j;
  }
  if (!v.is_identifier(j) || stars > 1) return npos;
  const std::string_view next = v.text(j + 1);
  if (!(next == ";" || next == "," || next == "=" || next == ")" || next == "[" || next == "(" || next == "{" ||
        next == ":"))
    return npos;
  pointer = stars == 1 || next == "[";
  return j;
}

// Last code index of the unary expression that starts at `i` (prefix operators, casts, a primary
// and its postfix chain); npos when none starts there.
std::size_t unary_end(const lex::CodeView& v, std::size_t i) {
  const std::size_t n = v.code_size();
  while (i < n && (v.is(i, "*") || v.is(i, "&") || v.is(i, "-") || v.is(i, "+") || v.is(i, "!") || v.is(i, "~") ||
                   v.is(i, "++") || v.is(i, "--")))
    ++i;
  if (i >= n) return npos;
  std::size_t e;
  if (v.is(i, "(")) {
    const std::size_t p = v.partner(i);
    if (p == npos) return npos;
    // `(T)x`: a cast when an operand follows the group.
    if (p + 1 < n && (v.is_identifier(p + 1) || v.is_number(p + 1)) && !is_expression_keyword(v.text(p + 1)))
      return unary_end(v, p + 1);
    e = p;
  } else if (v.is_identifier(i) || v.is_number(i) || v.code(i).kind == lex::Kind::String) {
    e = i;
    if ((v.is(i, "static_cast") || v.is(i, "reinterpret_cast") || v.is(i, "const_cast")) && v.is(i + 1, "<")) {
      std::size_t j = i + 2;
      int depth = 1;
      while (j < n && depth > 0) {
        if (v.is(j, "<")) ++depth;
        if (v.is(j, ">")) --depth;
        ++j;
      }
      if (!v.is(j, "(") || v.partner(j) == npos) return npos;
      e = v.partner(j);
    }
    while (v.is(e + 1, "::") && v.is_identifier(e + 2)) e += 2;
  } else {
    return npos;
  }
  for (;;) {
    if ((v.is(e + 1, "(") || v.is(e + 1, "[")) && v.partner(e + 1) != npos) e = v.partner(e + 1);
    else if ((v.is(e + 1, ".") || v.is(e + 1, "->")) && v.is_identifier(e + 2)) e += 2;
    else break;
  }
  return e;
}

// First code index of the postfix expression that ends at `e` (`a.b[i]->c`, `f(x)`).
std::size_t postfix_start(const lex::CodeView& v, std::size_t e) {
  std::size_t s = e;
  for (;;) {
    if (v.is(s, ")") || v.is(s, "]")) {
      const std::size_t p = v.partner(s);
      if (p == npos) return s;
      s = p;
      if (s > 0 && (v.is_identifier(s - 1) && !is_expression_keyword(v.text(s - 1)))) {
        --s;  // a call or a subscript
      } else if (s > 0 && v.is(s - 1, ">")) {
        std::size_t j = s - 1;  // static_cast<T>(x)
        int depth = 1;
        while (j > 0 && depth > 0) {
          --j;
          if (v.is(j, ">")) ++depth;
          if (v.is(j, "<")) --depth;
        }
        if (j > 0 && v.is_identifier(j - 1)) s = j - 1;
      }
    }
    if (s >= 2 && (v.is(s - 1, ".") || v.is(s - 1, "->") || v.is(s - 1, "::")) &&
        (v.is_identifier(s - 2) || v.is(s - 2, ")") || v.is(s - 2, "]"))) {
      s -= 2;
      continue;
    }
    break;
  }
  return s;
}

// First code index of the unary expression that ends at `e`: the postfix expression, casts and
// prefix operators before it.
std::size_t unary_start(const lex::CodeView& v, std::size_t e) {
  std::size_t s = postfix_start(v, e);
  while (s > 0) {
    const std::size_t p = s - 1;
    if ((v.is(p, "*") || v.is(p, "&") || v.is(p, "-") || v.is(p, "!") || v.is(p, "~")) && !is_binary_at(v, p)) {
      s = p;
    } else if (is_cast_paren(v, p)) {
      s = v.partner(p);  // (T)x
    } else {
      break;
    }
  }
  return s;
}

bool null_literal(const lex::CodeView& v, std::size_t first, std::size_t last) {
  if (first != last) return false;
  const std::string_view t = v.text(first);
  return t == "NULL" || t == "nullptr" || t == "0" || t == "0U" || t == "0u" || t == "0ULL" || t == "0ull" ||
         t == "0UL" || t == "0ul" || t == "0L" || t == "0LL";
}

// The innermost `(`, `[` or `{` that holds code token `ci`, or npos.
std::size_t enclosing_open(const lex::CodeView& v, std::size_t ci) {
  std::size_t i = ci;
  while (i > 0) {
    --i;
    if (v.is(i, ")") || v.is(i, "]") || v.is(i, "}")) {
      const std::size_t p = v.partner(i);
      if (p == npos) return npos;
      i = p;
      continue;
    }
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) return i;
    if (v.is(i, ";")) return npos;
  }
  return npos;
}

namespace {

// The declarations with a handle type, in file order; `declared` gets their names' code indices.
std::vector<Decl> handle_declarations(const lex::CodeView& v, std::unordered_set<std::size_t>& declared,
                                      Spelling spelling) {
  std::vector<Decl> out;
  // Only the handle types' occurrences can start one (handle_at).
  static const std::vector<std::string_view> kTypeNames = [] {
    std::vector<std::string_view> names;
    for (const IntegerHandle& h : kHandles) names.insert(names.end(), std::begin(h.cuda), std::end(h.cuda));
    return names;
  }();
  static const std::vector<std::string_view> kHipTypeNames = [] {
    std::vector<std::string_view> names;
    for (const IntegerHandle& h : kHandles) names.push_back(h.hip);
    return names;
  }();
  for (const std::size_t ci : v.occurrences(spelling == Spelling::Hip ? kHipTypeNames : kTypeNames)) {
    const IntegerHandle* handle = handle_at(v, ci, spelling);
    if (!handle || v.in_directive(ci) || v.is_member_or_qualified(ci)) continue;
    if (ci > 0 && (v.is(ci - 1, "<") || v.is(ci - 1, "typedef") || (v.is(ci - 1, "(") && v.is(ci + 1, ")")))) continue;
    bool pointer = false;
    std::size_t name = declarator_at(v, ci + 1, pointer);
    if (name == npos) continue;
    // `CUdeviceptr a = x, *b;` at statement level declares several names; in a parameter list a
    // comma starts the next parameter.
    std::size_t s = ci;
    while (s > 0 && (v.is(s - 1, "static") || v.is(s - 1, "const") || v.is(s - 1, "extern") || v.is(s - 1, "volatile")))
      --s;
    const bool statement = s == 0 || v.is(s - 1, ";") || v.is(s - 1, "{") || v.is(s - 1, "}") || v.is(s - 1, ":");
    while (name != npos) {
      out.push_back({name, pointer ? DeclKind::Pointer : DeclKind::Value, handle, ci});
      declared.insert(name);
      if (!statement) break;
      std::size_t j = name + 1;
      while (j < v.code_size() && !v.is(j, ",") && !v.is(j, ";")) {
        const std::size_t p = v.partner(j);
        j = (p != npos && p > j) ? p + 1 : j + 1;
      }
      if (!v.is(j, ",")) break;
      pointer = false;
      name = declarator_at(v, j + 1, pointer);
    }
  }
  return out;
}

// The identifier at `ci` (not a handle declaration's name) is declared with another type.
bool declared_other(const lex::CodeView& v, std::size_t ci, Spelling spelling) {
  bool other = is_declared_name(v, ci);
  // `Foo *p = ...`, `Foo &r;`: a declaration with a type we cannot name (is_declared_name takes
  // built-in types only there).
  if (!other && ci >= 2 && (v.is(ci - 1, "*") || v.is(ci - 1, "&")) && v.is_identifier(ci - 2) &&
      !is_expression_keyword(v.text(ci - 2)) && !is_handle_type(v, ci - 2, spelling)) {
    const std::string_view next = v.text(ci + 1);
    other = next == "=" || next == ";" || next == "," || next == ")" || next == "[";
    // `T *getPointer() const {`: a function declared to return another type (cuda-vmm's
    // cuvector.h, beside allocators whose getPointer returns a CUdeviceptr). What follows the
    // parameter list tells a declarator from a product with a call; `;` only at a statement's start.
    if (next == "(" && v.partner(ci + 1) != npos) {
      const std::size_t after = v.partner(ci + 1) + 1;
      const bool statement_start =
          ci < 3 || v.is(ci - 3, ";") || v.is(ci - 3, "{") || v.is(ci - 3, "}") || v.is(ci - 3, ":");
      other = v.is(after, "const") || v.is(after, "{") || v.is(after, "noexcept") || v.is(after, "override") ||
              v.is(after, "final") || v.is(after, "->") || (v.is(after, ";") && statement_start);
    }
  }
  return other;
}

void sort_by_position(std::vector<Decl>& out) {
  std::sort(out.begin(), out.end(), [](const Decl& a, const Decl& b) { return a.ci < b.ci; });
}

}  // namespace

// Every declaration of a name in `v`, in file order: CUdeviceptr values and pointers, and names
// declared with any other type (as far as tokens tell; such a name is never rewritten).
std::vector<Decl> declarations(const lex::CodeView& v) {
  std::unordered_set<std::size_t> declared;
  std::vector<Decl> out = handle_declarations(v, declared, Spelling::Cuda);
  for (std::size_t ci = 1; ci < v.code_size(); ++ci)
    if (v.is_identifier(ci) && !declared.contains(ci) && declared_other(v, ci, Spelling::Cuda))
      out.push_back({ci, DeclKind::Other, nullptr});
  sort_by_position(out);
  return out;
}

std::vector<Decl> declarations_of(const lex::CodeView& v, const std::vector<std::string_view>& names,
                                  Spelling spelling) {
  std::unordered_set<std::size_t> declared;
  std::vector<Decl> out = handle_declarations(v, declared, spelling);
  std::vector<std::uint32_t> at;
  std::unordered_set<std::string_view> seen;
  auto add_name = [&](std::string_view name) {
    if (!seen.insert(name).second) return;
    const std::span<const std::uint32_t> o = v.occurrences(name);
    at.insert(at.end(), o.begin(), o.end());
  };
  for (const std::string_view name : names) add_name(name);
  for (std::size_t k = 0, n = out.size(); k < n; ++k) add_name(v.text(out[k].ci));
  std::sort(at.begin(), at.end());
  for (const std::size_t ci : at)
    if (ci >= 1 && !declared.contains(ci) && declared_other(v, ci, spelling))
      out.push_back({ci, DeclKind::Other, nullptr});
  sort_by_position(out);
  return out;
}

}  // namespace deviceptr

namespace {

using namespace deviceptr;
using Names = ProjectContext::IntegerHandleNames;

// What one translation unit's file declares.
struct FileDecls {
  Names own;
  std::unordered_set<std::string> others;  // names declared with another type
};

// `alone`: the file is the whole project (one file migrated on its own), so only its own handle
// names can meet a declaration with another type: those names' declarations are read through the
// name index instead of every identifier's (declarations_of).
FileDecls scan_file(const lex::CodeView& v, bool alone) {
  FileDecls d;
  for (const Decl& decl : alone ? declarations_of(v, {}) : declarations(v)) {
    std::string name(v.text(decl.ci));
    if (decl.kind == DeclKind::Other) {
      d.others.insert(std::move(name));
      continue;
    }
    auto& to = decl.kind == DeclKind::Value ? d.own.values : d.own.pointers;
    const auto [it, added] = to.emplace(name, decl.handle->hip);
    if (!added && it->second != decl.handle->hip) d.own.ambiguous.insert(name);  // two handle types
  }
  return d;
}

std::string normal(const std::filesystem::path& p) { return p.lexically_normal().generic_string(); }

// The tree files `inc` (as written in `from`) may name: beside `from`, else any tree file whose
// path ends with it (a header found through -I).
std::vector<std::size_t> resolve_include(const std::string& from, const std::string& inc,
                                         const std::unordered_map<std::string, std::size_t>& by_path) {
  const std::string beside = normal(std::filesystem::path(from).parent_path() / inc);
  if (const auto it = by_path.find(beside); it != by_path.end()) return {it->second};
  std::vector<std::size_t> hits;
  const std::string tail = normal(std::filesystem::path(inc));
  for (const auto& [path, index] : by_path)
    if (path == tail ||
        (path.size() > tail.size() && path.ends_with(tail) && path[path.size() - tail.size() - 1] == '/'))
      hits.push_back(index);
  return hits;
}

}  // namespace

namespace {

// What each file declares (files that name no handle type declare nothing to it), then each
// translation unit's names: the file's own and those of the tree headers it includes.
class DeviceptrScan final : public ProjectScan {
 public:
  bool wants(const SourceView&, std::string_view text) const override { return mentions_handle(text); }
  void file(const SourceView& f, const migrate::FileMigration& v, ProjectContext& ctx) override {
    FileDecls d = scan_file(v, ctx.single_file);
    if (d.own.values.empty() && d.own.pointers.empty() && d.own.ambiguous.empty() && d.others.empty()) return;
    any_ = any_ || !d.own.values.empty() || !d.own.pointers.empty();
    decls_.emplace(f.path, std::move(d));
  }
  void finish(const std::vector<SourceView>& files, ProjectContext& ctx) override;

 private:
  std::unordered_map<std::string, FileDecls> decls_;  // by SourceView::path
  bool any_ = false;
};

void DeviceptrScan::finish(const std::vector<SourceView>& files, ProjectContext& ctx) {
  // The files' declarations are let go of when this returns: the scans after this one (the
  // wave64 planner's) finish while this scan still exists.
  const std::unordered_map<std::string, FileDecls> decls_of = std::exchange(decls_, {});
  if (!any_) return;
  const FileDecls none;
  std::vector<const FileDecls*> decls;
  decls.reserve(files.size());
  for (const SourceView& f : files) {
    const auto it = decls_of.find(f.path);
    decls.push_back(it == decls_of.end() ? &none : &it->second);
  }
  std::unordered_map<std::string, std::size_t> by_path;
  for (std::size_t i = 0; i < files.size(); ++i) by_path[normal(files[i].path)] = i;
  // A unit that declares nothing itself gets its names from its headers alone, built the same way
  // for the same headers in the same order: such units share one (null: no names).
  std::map<std::vector<std::size_t>, std::shared_ptr<const Names>> by_headers;
  for (std::size_t i = 0; i < files.size(); ++i) {
    // The tree headers the file includes, transitively.
    std::vector<std::size_t> todo = {i};
    std::unordered_set<std::size_t> seen = {i};
    std::vector<std::size_t> headers;
    std::unordered_set<std::string> header_others;
    while (!todo.empty()) {
      const std::size_t at = todo.back();
      todo.pop_back();
      const auto included = ctx.includes.find(files[at].path);
      if (!included) continue;
      for (const std::string& written : *included) {
        if (written.size() < 2 || written.front() != '"') continue;  // "x.h": a tree header
        const std::string inc = written.substr(1, written.size() - 2);
        for (const std::size_t h : resolve_include(files[at].path, inc, by_path))
          if (seen.insert(h).second) {
            todo.push_back(h);
            headers.push_back(h);
            header_others.insert(decls[h]->others.begin(), decls[h]->others.end());
          }
      }
    }
    const bool declares_nothing = decls[i] == &none;
    if (declares_nothing)
      if (const auto same = by_headers.find(headers); same != by_headers.end()) {
        if (same->second) ctx.integer_handle_names[files[i].path] = same->second;
        continue;
      }
    const FileDecls& own = *decls[i];
    Names out;
    // A name is ambiguous when it is also declared with another type, or with two handle types.
    auto take = [&](const Names& from, const std::unordered_set<std::string>& conflicts_a,
                    const std::unordered_set<std::string>* conflicts_b) {
      out.ambiguous.insert(from.ambiguous.begin(), from.ambiguous.end());
      for (const auto* part : {&from.values, &from.pointers}) {
        auto& to = part == &from.values ? out.values : out.pointers;
        for (const auto& [n, type] : *part) {
          if (conflicts_a.contains(n) || (conflicts_b && conflicts_b->contains(n))) {
            out.ambiguous.insert(n);
            continue;
          }
          const auto [it, added] = to.emplace(n, type);
          if (!added && it->second != type) out.ambiguous.insert(n);
        }
      }
    };
    take(own.own, own.others, nullptr);
    for (const std::size_t h : headers) take(decls[h]->own, own.others, &header_others);
    // A name declared both ways among the handle declarations (value here, pointer there).
    for (const auto& [n, type] : out.values)
      if (out.pointers.contains(n)) out.ambiguous.insert(n);
    for (const std::string& n : out.ambiguous) {
      out.values.erase(n);
      out.pointers.erase(n);
    }
    std::shared_ptr<const Names> made;
    if (!out.values.empty() || !out.pointers.empty() || !out.ambiguous.empty())
      made = std::make_shared<const Names>(std::move(out));
    if (declares_nothing) by_headers.emplace(std::move(headers), made);
    if (made) ctx.integer_handle_names[files[i].path] = std::move(made);
  }
}

}  // namespace

std::unique_ptr<ProjectScan> deviceptr_scan() { return std::make_unique<DeviceptrScan>(); }

}  // namespace ferry::targets::hip
