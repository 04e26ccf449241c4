// `__global__` static member functions (docs/targets.md, "cuda", "Kernels that are member
// functions"): clang, so hipcc, accepts them; nvcc rejects "A __global__ function or function
// template cannot be a member function". The member stays where it is, as a `__device__` static
// function (so its body keeps the class's scope: private members, nested types, the class's
// template parameters), made public; a kernel at namespace scope, `Class_kernel`, with the class's
// template parameters and then its own, calls it. References become the new kernel's name:
// `kernel` / `kernel<B, W>` inside the class (launches, `&kernel`), `Class<T>::kernel` and
// `Class<T>::template kernel<B>` anywhere in the file (FRY1244). What the pass cannot hoist gets
// FRY1245 and stays.
#include <string>
#include <vector>

#include "analysis/tokens.h"
#include "rules/rule_set.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using analysis::walk_top_level;
using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

// One template or function parameter: its declarator name and where its default begins.
struct Param {
  ArgRange all;
  std::size_t name = npos;      // code index of the name
  std::size_t default_ = npos;  // code index of the `=`
  bool pack = false;
};

Param read_param(const FileMigration& f, ArgRange a) {
  Param p{a};
  std::size_t end = a.last;
  walk_top_level(f, a.first, a.last, [&](std::size_t i, int angle) {
    if (f.is(i, "[") && angle == 0 && end == a.last) {  // `T a[4]`
      const std::size_t m = f.match_bracket(i);
      if (m != npos && m <= a.last) end = i - 1;
    } else if (f.is(i, "=") && angle == 0) {
      p.default_ = i;
      end = i - 1;
      return false;
    } else if (f.is(i, "...")) {
      p.pack = true;
    }
    return true;
  });
  if (end > a.first && end <= a.last && f.is_identifier(end) && !f.is(end - 1, "::") && !f.is(end, "const") &&
      !f.is(end, "volatile") && !f.is(end, "__restrict__") && !f.is(end, "int") && !f.is(end, "float") &&
      !f.is(end, "double") && !f.is(end, "unsigned") && !f.is(end, "char") && !f.is(end, "bool") &&
      !f.is(end, "long") && !f.is(end, "short"))
    p.name = end;
  return p;
}

// Why `ci` (a `__global__` in a class body) cannot be hoisted, or "" when it can; fills `k`.
struct MemberKernel {
  std::size_t global = npos;      // the `__global__` token
  std::size_t decl_first = npos;  // first token of the member declaration (its `template` if any)
  std::size_t tmpl_open = npos;   // `<` of the member's template head
  std::size_t tmpl_close = npos;
  std::size_t name = npos;
  std::size_t params_open = npos;
  std::size_t body_open = npos;
  std::size_t body_close = npos;
  std::size_t bounds = npos;  // `__launch_bounds__`
  std::size_t bounds_close = npos;
  // The class.
  std::size_t class_head = npos;  // its `template` (or `class`/`struct`) token
  std::size_t class_kw = npos;
  std::size_t class_name = npos;
  std::size_t class_open = npos;
  std::size_t class_close = npos;
  std::size_t class_tmpl_open = npos;
  std::size_t class_tmpl_close = npos;
};

bool is_class_key(const FileMigration& f, std::size_t i) { return f.is(i, "class") || f.is(i, "struct"); }

// The class whose body `open` (a `{`) opens: fills the class fields, or returns false.
bool read_class(const FileMigration& f, std::size_t open, MemberKernel& k) {
  // Walk back to the class key over `final`, a base clause, the name.
  std::size_t key = npos;
  for (std::size_t i = open; i-- > 0;) {
    if (f.is(i, ";") || f.is(i, "{") || f.is(i, "}") || f.is(i, ")") || f.is(i, "namespace") || f.in_directive(i))
      break;
    if (f.is(i, ">") || f.is(i, ">>")) continue;
    if (is_class_key(f, i)) {
      key = i;
      break;
    }
  }
  if (key == npos || !f.is_identifier(key + 1) || (key > 0 && f.is(key - 1, "enum"))) return false;
  k.class_kw = key;
  k.class_name = key + 1;
  k.class_open = open;
  k.class_close = f.match_bracket(open);
  k.class_head = key;
  if (key > 0 && (f.is(key - 1, ">") || f.is(key - 1, ">>"))) {
    // template<...> class X: find the head's `template <`.
    for (std::size_t i = key - 1; i-- > 0;) {
      if (f.is(i, ";") || f.is(i, "{") || f.is(i, "}")) break;
      if (f.is(i, "template") && f.is(i + 1, "<") && analysis::angle_close(f, i + 1) == key - 1) {
        k.class_head = i;
        k.class_tmpl_open = i + 1;
        k.class_tmpl_close = key - 1;
        break;
      }
    }
    if (k.class_head == key) return false;
  }
  return k.class_close != npos;
}

// The `{` that encloses `ci`, or npos at file scope.
std::size_t enclosing_brace(const FileMigration& f, std::size_t ci) {
  for (std::size_t i = ci; i-- > 0;) {
    if (f.is(i, "}")) {
      const std::size_t p = f.partner(i);
      if (p == npos || p > i) return npos;
      i = p;
    } else if (f.is(i, "{")) {
      return i;
    }
  }
  return npos;
}

std::string read_member(const FileMigration& f, std::size_t ci, MemberKernel& k) {
  k.global = ci;
  const std::size_t open = enclosing_brace(f, ci);
  if (open == npos || !read_class(f, open, k)) return "-";  // not a member: nothing to do
  // The declaration's first token: after the previous `;`, `{`, `}` or access specifier.
  std::size_t first = ci;
  for (std::size_t i = ci; i-- > open + 1;) {
    if (f.is(i, ")") || f.is(i, "]")) {
      const std::size_t p = f.partner(i);
      if (p == npos || p >= i) break;
      i = p;
      first = p;
      continue;
    }
    if (f.is(i, ";") || f.is(i, "{") || f.is(i, "}") || f.is(i, ":")) break;
    first = i;
  }
  k.decl_first = first;
  bool is_static = false;
  for (std::size_t i = first; i < ci; ++i) {
    if (f.is(i, "friend")) return "-";
    if (f.is(i, "static")) is_static = true;
  }
  if (f.is(first, "template") && f.is(first + 1, "<")) {
    k.tmpl_open = first + 1;
    k.tmpl_close = analysis::angle_close(f, first + 1);
    if (k.tmpl_close == npos || k.tmpl_close > ci) return "its template head could not be read";
  }
  for (std::size_t i = ci + 1; i < f.code_size() && !f.is(i, ";") && !f.is(i, "{"); ++i) {
    if (f.is(i, "friend")) return "-";
    if (f.is(i, "static")) is_static = true;
    if (!f.is(i, "(")) continue;
    const std::size_t m = f.match_bracket(i);
    if (m == npos) return "its declaration could not be read";
    if (f.is(i - 1, "__launch_bounds__")) {
      k.bounds = i - 1;
      k.bounds_close = m;
    } else if (f.is_identifier(i - 1) && !f.is(i - 1, "__attribute__") && !f.is(i - 1, "alignas") &&
               !f.is(i - 1, "__declspec")) {
      k.name = i - 1;
      k.params_open = i;
      std::size_t b = m + 1;
      while (b < f.code_size() && !f.is(b, "{") && !f.is(b, ";")) ++b;
      if (b >= f.code_size() || f.is(b, ";")) return "it is declared in the class and defined elsewhere";
      k.body_open = b;
      k.body_close = f.match_bracket(b);
      if (k.body_close == npos) return "its body could not be read";
      break;
    }
    i = m;
  }
  if (k.name == npos) return "its declaration could not be read";
  if (f.is(k.name - 1, "::") || f.is(k.name, "operator")) return "it is not a plain member function";
  if (!is_static) return "it is not static (a kernel cannot have an object)";
  // The class must be at namespace scope: its enclosing brace is none or a namespace's.
  const std::size_t outer = enclosing_brace(f, k.class_head);
  if (outer != npos) {
    std::size_t i = outer;
    while (i > 0 && (f.is_identifier(i - 1) || f.is(i - 1, "::"))) --i;
    if (!f.is(i, "namespace") && !(f.is(i, "extern"))) return "its class is nested in a class or a function";
  }
  if (k.class_tmpl_open != npos && f.is(k.class_name + 1, "<"))
    return "its class is a partial or explicit specialization";
  return "";
}

// Text of tokens [first, last] with the source between them, each identifier the rule table
// renames written as its target name (the copy does not go through the rules).
std::string copy_renamed(const FileMigration& f, std::size_t first, std::size_t last) {
  std::string out;
  if (first > last || last >= f.code_size()) return out;
  const std::string_view src = f.source();
  for (std::size_t i = first; i <= last; ++i) {
    if (i > first) out += src.substr(f.code(i - 1).end, f.code(i).begin - f.code(i - 1).end);
    const std::string_view t = f.text(i);
    const rules::Rule* r = f.is_identifier(i) ? f.target().rules().find_identifier(t) : nullptr;
    if (r && r->has_replacement() && r->kind != rules::RuleKind::Call) out += r->to;
    else out += t;
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string indent_of(const FileMigration& f, std::size_t ci) {
  const std::string_view src = f.source();
  std::size_t b = f.code(ci).begin;
  std::size_t s = b;
  while (s > 0 && src[s - 1] != '\n') --s;
  std::string ind(src.substr(s, b - s));
  for (char& c : ind)
    if (c != '\t') c = ' ';
  return ind;
}

void hoist(FileMigration& f, const MemberKernel& k, std::vector<bool>& done_refs) {
  const std::string cname(f.text(k.class_name));
  const std::string kname(f.text(k.name));
  const std::string wname = cname + "_" + kname;
  const bool class_tmpl = k.class_tmpl_open != npos;
  const bool kern_tmpl = k.tmpl_open != npos;

  // Template parameters: the class's (without defaults), then the kernel's.
  std::vector<std::string> cparams, cargs, kparams_decl, kparams_def, kargs;
  if (class_tmpl)
    for (const ArgRange& a : analysis::split_top_level(f, k.class_tmpl_open + 1, k.class_tmpl_close - 1)) {
      const Param p = read_param(f, a);
      if (p.name == npos) return;  // checked by the caller
      cparams.push_back(copy_renamed(f, a.first, p.default_ == npos ? a.last : p.default_ - 1));
      cargs.push_back(std::string(f.text(p.name)) + (p.pack ? "..." : ""));
    }
  if (kern_tmpl)
    for (const ArgRange& a : analysis::split_top_level(f, k.tmpl_open + 1, k.tmpl_close - 1)) {
      const Param p = read_param(f, a);
      if (p.name == npos) return;
      kparams_decl.push_back(copy_renamed(f, a.first, a.last));
      kparams_def.push_back(copy_renamed(f, a.first, p.default_ == npos ? a.last : p.default_ - 1));
      kargs.push_back(std::string(f.text(p.name)) + (p.pack ? "..." : ""));
    }
  const std::size_t params_close = f.match_bracket(k.params_open);
  std::vector<std::string> names;
  std::vector<std::string> params_def;
  for (const ArgRange& a : f.call_args(k.params_open)) {
    if (a.empty() || (a.first == a.last && f.is(a.first, "void"))) continue;
    const Param p = read_param(f, a);
    names.push_back(std::string(f.text(p.name)) + (p.pack ? "..." : ""));
    params_def.push_back(copy_renamed(f, a.first, p.default_ == npos ? a.last : p.default_ - 1));
  }
  const std::string params_decl = copy_renamed(f, k.params_open + 1, params_close - 1);
  const std::string bounds = k.bounds != npos ? copy_renamed(f, k.bounds, k.bounds_close) + " " : "";
  const std::string self = class_tmpl ? cname + "<" + join(cargs) + ">" : cname;
  const std::string call =
      self + "::" + (kern_tmpl ? "template " + kname + "<" + join(kargs) + ">" : kname) + "(" + join(names) + ");";
  const std::string ind = indent_of(f, k.class_head);
  const std::string note = "// ferry: nvcc takes no __global__ member function; " + cname + "::" + kname +
                           " is launched through this kernel\n" + ind;

  std::string before, after;
  if (class_tmpl) {
    // The call is dependent: the wrapper can come before the class, declared ahead of it.
    std::vector<std::string> all = cparams;
    all.insert(all.end(), kparams_decl.begin(), kparams_decl.end());
    before = "template <" + join(cparams) + "> " + std::string(f.text(k.class_kw)) + " " + cname + ";\n" + ind + note +
             "template <" + join(all) + ">\n" + ind + "__global__ " + bounds + "void " + wname + "(" + params_decl +
             ") { " + call + " }\n\n" + ind;
  } else {
    const std::string th = kern_tmpl ? "template <" + join(kparams_decl) + ">\n" + ind : "";
    const std::string thd = kern_tmpl ? "template <" + join(kparams_def) + ">\n" + ind : "";
    before = note + th + "__global__ " + bounds + "void " + wname + "(" + params_decl + ");\n\n" + ind;
    after =
        "\n\n" + ind + thd + "__global__ " + bounds + "void " + wname + "(" + join(params_def) + ") { " + call + " }";
  }
  f.insert_before(k.class_head, before);
  if (!after.empty()) {
    // After the class's `};`.
    std::size_t semi = k.class_close + 1;
    if (!f.is(semi, ";")) return;
    f.replace_bytes(f.code(semi).end, f.code(semi).end, after);
  }

  // The member: __device__, no launch bounds, public.
  f.replace(k.global, k.global, "__device__");
  if (k.bounds != npos) {
    const std::uint32_t e =
        k.bounds_close + 1 < f.code_size() ? f.code(k.bounds_close + 1).begin : f.code(k.bounds_close).end;
    f.replace_bytes(f.code(k.bounds).begin, e, "");
  }
  std::string access = f.is(k.class_kw, "class") ? "private" : "public";
  for (std::size_t i = k.class_open + 1; i < k.decl_first; ++i) {
    if (f.is(i, "{") || f.is(i, "(") || f.is(i, "[")) {
      const std::size_t m = f.match_bracket(i);
      if (m != npos) i = m;
      continue;
    }
    if ((f.is(i, "public") || f.is(i, "private") || f.is(i, "protected")) && f.is(i + 1, ":"))
      access = std::string(f.text(i));
  }
  if (access != "public") {
    const std::string mind = indent_of(f, k.decl_first);
    f.insert_before(k.decl_first, "public:  // ferry: called by the kernel " + wname + "\n" + mind);
    if (k.body_close + 1 < f.code_size())
      f.insert_before(k.body_close + 1, access + ":\n" + indent_of(f, k.body_close + 1));
  }

  // References.
  auto rewrite_ref = [&](std::size_t first, std::size_t name, const std::string& prefix_args) {
    // [first, name] are replaced; a `<` after the name joins the kernel's own arguments.
    if (f.is(name + 1, "<")) {
      f.replace(first, name + 1, wname + "<" + (prefix_args.empty() ? "" : prefix_args + ", "));
    } else {
      f.replace(first, name, prefix_args.empty() ? wname : wname + "<" + prefix_args + ">");
    }
  };
  // `Class<args>::[template] kernel` anywhere in the file.
  for (std::size_t i = 0; i + 2 < f.code_size(); ++i) {
    if (done_refs[i] || !f.is(i, cname) || f.is_member_name(i) || f.in_directive(i)) continue;
    std::size_t j = i + 1;
    std::string args;
    if (f.is(j, "<")) {
      const std::size_t c = analysis::angle_close(f, j);
      if (c == npos || !f.is(c, ">")) continue;
      args = class_tmpl ? std::string(f.span_text(j + 1, c - 1)) : "";
      j = c + 1;
    }
    if (!f.is(j, "::")) continue;
    ++j;
    if (f.is(j, "template")) ++j;
    if (!f.is(j, kname) || (j >= k.decl_first && j <= k.body_close) || f.touched(i)) continue;
    if (class_tmpl && args.empty()) args = join(cargs);  // the injected class name inside the class
    rewrite_ref(i, j, args);
    for (std::size_t x = i; x <= j; ++x) done_refs[x] = true;
    f.count_converted("member kernel");
  }
  // `kernel` / `&kernel` / `kernel<B>` inside the class.
  for (std::size_t i = k.class_open + 1; i < k.class_close; ++i) {
    if (i == k.decl_first) {
      i = k.body_close;
      continue;
    }
    if (done_refs[i] || !f.is(i, kname) || f.is_member_or_qualified(i) || f.touched(i)) continue;
    rewrite_ref(i, i, join(cargs));
    done_refs[i] = true;
  }
  f.diag(Diag::MemberKernelHoistedCuda, k.global,
         "'" + cname + "::" + kname +
             "' is a __global__ member function, which nvcc rejects: it stays a __device__ member, launched "
             "through the kernel '" +
             wname + "' at namespace scope",
         "nothing to do; launches of it in other files must name '" + wname + "'");
}

}  // namespace

void member_kernel_pass(FileMigration& file) {
  if (file.project().migrated_by == "hip") return;  // a round trip's way back: nvcc compiled the original
  std::vector<MemberKernel> todo;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is(ci, "__global__") || file.in_directive(ci) || file.excluded(ci) || file.touched(ci)) continue;
    MemberKernel k;
    std::string why = read_member(file, ci, k);
    if (why == "-") continue;
    if (why.empty() && k.class_tmpl_open != npos)
      for (const ArgRange& a : analysis::split_top_level(file, k.class_tmpl_open + 1, k.class_tmpl_close - 1))
        if (read_param(file, a).name == npos) why = "a template parameter of its class has no name";
    if (why.empty() && k.tmpl_open != npos)
      for (const ArgRange& a : analysis::split_top_level(file, k.tmpl_open + 1, k.tmpl_close - 1))
        if (read_param(file, a).name == npos) why = "one of its template parameters has no name";
    if (why.empty())
      for (const ArgRange& a : file.call_args(k.params_open))
        if (!a.empty() && !(a.first == a.last && file.is(a.first, "void")) && read_param(file, a).name == npos)
          why = "one of its parameters has no name";
    if (!why.empty()) {
      file.diag(Diag::MemberKernelNotHoistedCuda, ci,
                "a __global__ member function, which nvcc rejects, left unchanged: " + why,
                "move the kernel to namespace scope (a free function template with the class's template "
                "parameters) and launch that");
      continue;
    }
    todo.push_back(k);
    ci = k.body_close;
  }
  std::vector<bool> done_refs(file.code_size(), false);
  for (const MemberKernel& k : todo) hoist(file, k, done_refs);
}

}  // namespace ferry::targets::cuda
