// Argument adaptation for AscendCL/HCCL calls whose parameter types differ from CUDA's/NCCL's
// (signatures: docs/targets.md#cann, checked against the public headers). The user's arguments
// stay where they are in the text, so the rule tables still rename what is inside them; only the
// glue around them changes.
//
// An out-parameter `T *` receives the user's pointer unchanged when its pointee is T, through a
// reinterpret_cast when the pointee has T's size and signedness (LP64: `long long` for int64_t),
// and otherwise through a generic lambda that passes a T temporary and copies it back on success:
//   cudaGetDeviceCount(&n)   (int n)  →
//   [](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err =
//   aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) *ferry_count = ferry_count_v;
//   return ferry_err; }(&n)
// The lambda is an expression, so it works as a statement, in a condition and inside a CHECK()
// macro argument (its body has no top-level comma); it needs C++14 (generic lambdas).
#include <array>
#include <string>
#include <vector>

#include "targets/cann/passes.h"

namespace ferry::targets::cann {

using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

namespace {

bool is_type_word(std::string_view t) {
  static constexpr std::array<std::string_view, 22> kWords = {
      "int",      "unsigned", "signed",    "long",    "short",    "char",     "float",   "double",
      "uint32_t", "int32_t",  "size_t",    "int64_t", "uint64_t", "uint16_t", "int16_t", "uint8_t",
      "int8_t",   "ssize_t",  "ptrdiff_t", "bool",    "auto",     "const"};
  for (std::string_view w : kWords)
    if (t == w) return true;
  return false;
}

bool is_decl_follower(std::string_view t) {
  return t == ";" || t == "=" || t == "," || t == "{" || t == ")" || t == "[";
}

// Start of the declaration that holds the declarator ending before `j` (which is a `,`): back over
// balanced brackets to the previous `;`, `{`, `}` or an unmatched `(`.
std::size_t declaration_start(const FileMigration& f, std::size_t j, bool& in_parens) {
  int depth = 0;
  in_parens = false;
  for (std::size_t k = j; k-- > 0;) {
    const std::string_view t = f.text(k);
    if (t == ")" || t == "]") ++depth;
    else if (t == "(" || t == "[") {
      if (depth == 0) {
        in_parens = true;
        return k + 1;
      }
      --depth;
    } else if (depth == 0 && (t == ";" || t == "{" || t == "}")) return k + 1;
  }
  return 0;
}

bool is_statement_keyword(std::string_view t) {
  return t == "return" || t == "case" || t == "else" || t == "do" || t == "goto" || t == "throw" || t == "sizeof" ||
         t == "new" || t == "delete" || t == "co_return" || t == "co_yield";
}

}  // namespace

DeclInfo declaration_of(const FileMigration& f, std::string_view name, std::size_t before) {
  for (std::size_t i = std::min(before, f.code_size()); i-- > 1;) {
    if (f.text(i) != name || !f.is_identifier(i) || f.is_member_or_qualified(i)) continue;
    if (i + 1 >= f.code_size() || !is_decl_follower(f.text(i + 1))) continue;
    DeclInfo d;
    d.is_array = f.is(i + 1, "[");
    std::size_t j = i;  // first token of the declarator
    while (j > 0 && (f.is(j - 1, "*") || f.is(j - 1, "&") || f.is(j - 1, "const"))) {
      --j;
      if (f.is(j, "*")) ++d.pointer_level;
      if (f.is(j, "const")) d.is_const = true;  // `T * const p`: the pointer itself
    }
    if (j == 0) continue;
    const std::string_view prev = f.text(j - 1);
    std::size_t first = 0, last = 0;  // the type words: [first, last)
    if (prev == ",") {
      bool in_parens = false;
      first = declaration_start(f, j - 1, in_parens);
      if (in_parens) continue;  // `f(x, n)`: an argument list, not a declaration
      // The leading run of type words; a trailing plain identifier is the first declarator.
      last = first;
      while (last < j - 1 && (is_type_word(f.text(last)) || f.is_identifier(last) || f.is(last, "::"))) ++last;
      if (last > first && f.is_identifier(last - 1) && !is_type_word(f.text(last - 1))) --last;
    } else if (prev == ">") {
      d.found = true;  // a template type (std::atomic<int>, ...): not one we reason about
      return d;
    } else if ((is_type_word(prev) || f.is_identifier(j - 1)) && !is_statement_keyword(prev)) {
      last = j;
      first = j;
      while (first > 0 && (is_type_word(f.text(first - 1)) || f.is(first - 1, "::") ||
                           (f.is_identifier(first - 1) && !is_statement_keyword(f.text(first - 1)))))
        --first;
    } else {
      continue;  // `x = n;`, `(n)`: a use, not a declaration
    }
    if (first >= last) continue;
    d.found = true;
    d.builtin = true;
    for (std::size_t k = first; k < last; ++k) {
      const std::string_view t = f.text(k);
      if (t == "const") {
        (d.pointer_level > 0 ? d.pointee_const : d.is_const) = true;
        continue;
      }
      if (t == "static" || t == "extern" || t == "volatile" || t == "register" || t == "inline" || t == "thread_local")
        continue;
      if (!is_type_word(t)) d.builtin = false;
      d.type += (d.type.empty() ? "" : " ") + std::string(t);
    }
    return d;
  }
  return {};
}

std::string canonical_type(std::string_view type) {
  // glibc on LP64 (the CANN hosts: aarch64 and x86_64 Linux).
  static const std::pair<std::string_view, std::string_view> kAliases[] = {
      {"uint32_t", "unsigned int"},
      {"int32_t", "int"},
      {"int64_t", "long"},
      {"uint64_t", "unsigned long"},
      {"size_t", "unsigned long"},
      {"ssize_t", "long"},
      {"ptrdiff_t", "long"},
      {"unsigned", "unsigned int"},
      {"signed", "int"},
      {"signed int", "int"},
      {"long int", "long"},
      {"signed long", "long"},
      {"unsigned long int", "unsigned long"},
      {"long long int", "long long"},
      {"unsigned long long int", "unsigned long long"},
      {"short int", "short"},
      {"uint16_t", "unsigned short"},
      {"int16_t", "short"},
      {"uint8_t", "unsigned char"},
      {"int8_t", "signed char"}};
  for (const auto& [from, to] : kAliases)
    if (type == from) return std::string(to);
  return std::string(type);
}

namespace {

struct Layout {
  int size = 0;
  char kind = '?';  // 's' signed, 'u' unsigned, 'f' floating
};

Layout layout_of(const std::string& canonical) {
  static const std::pair<std::string_view, Layout> kLayouts[] = {
      {"int", {4, 's'}},           {"unsigned int", {4, 'u'}},   {"long", {8, 's'}},
      {"unsigned long", {8, 'u'}}, {"long long", {8, 's'}},      {"unsigned long long", {8, 'u'}},
      {"short", {2, 's'}},         {"unsigned short", {2, 'u'}}, {"float", {4, 'f'}},
      {"double", {8, 'f'}}};
  for (const auto& [name, l] : kLayouts)
    if (canonical == name) return l;
  return {};
}

}  // namespace

ArgFit fit_out_arg(const FileMigration& f, const ArgRange& a, std::string_view acl_pointee) {
  if (a.empty()) return ArgFit::Other;
  const std::string text = squeezed(f, a.first, a.last);
  if (text == "0" || text == "NULL" || text == "nullptr") return ArgFit::Null;
  DeclInfo d;
  if (a.last == a.first + 1 && f.is(a.first, "&") && f.is_identifier(a.last)) {
    d = declaration_of(f, f.text(a.last), a.first);
    if (!d.found || d.pointer_level != 0 || d.is_array || d.is_const) return ArgFit::Other;
  } else if (a.first == a.last && f.is_identifier(a.first)) {
    d = declaration_of(f, f.text(a.first), a.first);
    if (!d.found || d.pointer_level != 1 || d.pointee_const) return ArgFit::Other;
  } else {
    return ArgFit::Other;
  }
  if (!d.builtin || d.type.empty() || d.type == "auto") return ArgFit::Other;
  const std::string user = canonical_type(d.type);
  const std::string acl = canonical_type(acl_pointee);
  if (user == acl) return ArgFit::Same;
  const Layout lu = layout_of(user), la = layout_of(acl);
  if (lu.size != 0 && lu.size == la.size && lu.kind == la.kind) return ArgFit::SameLayout;
  return ArgFit::Other;
}

bool adapt_call(FileMigration& f, std::size_t ci, std::size_t close, const std::vector<ArgRange>& args,
                const CallSpec& spec) {
  const std::size_t open = ci + 1;
  std::vector<ArgFit> fits(args.size(), ArgFit::Same);
  bool need_lambda = false, in_order = true;
  int expect = 0;
  for (const CallParam& p : spec.params) {
    if (p.src < 0) continue;
    if (static_cast<std::size_t>(p.src) >= args.size() || args[p.src].empty()) return false;
    if (p.src != expect++) in_order = false;
    if (p.out) {
      fits[p.src] = fit_out_arg(f, args[p.src], p.pointee);
      if (fits[p.src] == ArgFit::Other || fits[p.src] == ArgFit::Null) need_lambda = true;
    }
  }
  if (expect != static_cast<int>(args.size())) return false;
  if (!in_order) need_lambda = true;

  if (!need_lambda) {
    // Glue edits only: the name, literal parameters before each argument, and casts.
    f.replace(ci, ci, spec.acl_name);
    std::string pending;
    for (const CallParam& p : spec.params) {
      if (p.src < 0) {
        pending += p.literal + ", ";
        continue;
      }
      std::string prefix = pending;
      pending.clear();
      if (p.out && fits[p.src] == ArgFit::SameLayout) {
        f.insert_before(args[p.src].first, prefix + "reinterpret_cast<" + p.pointee + " *>(");
        f.insert_before(args[p.src].last + 1, ")");
      } else if (!prefix.empty()) {
        f.insert_before(args[p.src].first, prefix);
      }
    }
    if (!pending.empty()) f.insert_before(close, ", " + pending.substr(0, pending.size() - 2));
    return true;
  }

  // [](auto *ferry_count, ...) { T ferry_count_v = 0; const R ferry_err = acl(...); copy back; return; }(args)
  std::vector<std::string> names(args.size());
  for (const CallParam& p : spec.params)
    if (p.src >= 0) names[p.src] = "ferry_" + p.name;
  std::string lambda = "[](";
  for (std::size_t i = 0; i < args.size(); ++i) {
    bool pointer = false;
    for (const CallParam& p : spec.params)
      if (p.src == static_cast<int>(i)) pointer = p.out && fits[i] != ArgFit::Null;
    lambda += std::string(i ? ", " : "") + (pointer ? "auto *" : "auto ") + names[i];
  }
  lambda += ") { ";
  std::string call = spec.acl_name + "(", copy_back, why;
  bool temporaries = false;
  bool first = true;
  for (const CallParam& p : spec.params) {
    call += first ? "" : ", ";
    first = false;
    if (p.src < 0) {
      call += p.literal;
      continue;
    }
    const std::string& n = names[p.src];
    if (!p.out || fits[p.src] == ArgFit::Same) {
      call += n;
    } else if (fits[p.src] == ArgFit::SameLayout) {
      call += "reinterpret_cast<" + p.pointee + " *>(" + n + ")";
    } else {
      lambda += p.pointee + " " + n + "_v = 0; ";
      call += "&" + n + "_v";
      temporaries = true;
      const std::string arg = squeezed(f, args[p.src].first, args[p.src].last);
      if (fits[p.src] == ArgFit::Null) {
        lambda += "(void)" + n + "; ";
        why += (why.empty() ? "" : "; ") + arg + " for '" + p.name + "', which is always written";
      } else {
        copy_back += "*" + n + " = " + n + "_v; ";
        why += (why.empty() ? "" : "; ") + std::string("'") + p.name + "' is " + p.pointee + " *, and " + arg +
               " is not visibly a " + p.pointee + " *";
      }
    }
  }
  call += ")";
  lambda += "const " + spec.result_type + " ferry_err = " + call + "; ";
  if (!copy_back.empty()) {
    copy_back.pop_back();
    lambda += "if (ferry_err == " + spec.success + ") { " + copy_back + " } ";
  }
  lambda += "return ferry_err; }(";
  f.replace(ci, open, std::move(lambda));
  if (why.empty()) why = "the arguments are in another order than " + spec.acl_name + "'s";
  f.diag(Diag::CannOutParamTemporary, ci,
         spec.acl_name + ": " + why + "; the call became a lambda that passes " +
             (temporaries ? std::string("temporaries of the AscendCL types") +
                                (copy_back.empty() ? "" : " and copies them back on success")
                          : std::string("the arguments in ") + spec.acl_name + "'s order"),
         "declare the variables with the AscendCL types (and pass no null pointers) to get a plain call");
  return true;
}

bool mutable_void_arg(FileMigration& f, const ArgRange& a) {
  if (a.empty()) return false;
  const std::string text = squeezed(f, a.first, a.last);
  if (text.rfind("const_cast<", 0) == 0) return false;
  // `buf` or `buf + offset` with `buf` a visibly non-const pointer or array: already a void *.
  if (f.is_identifier(a.first) && (a.first == a.last || f.is(a.first + 1, "+") || f.is(a.first + 1, "-"))) {
    const DeclInfo d = declaration_of(f, f.text(a.first), a.first);
    if (d.found && d.builtin && !d.pointee_const && (d.pointer_level == 1 || (d.is_array && !d.is_const))) return false;
    if (d.found && !d.builtin && d.pointer_level == 1 && !d.pointee_const) return false;
  }
  f.insert_before(a.first, "const_cast<void *>(static_cast<const void *>(");
  f.insert_before(a.last + 1, "))");
  return true;
}

}  // namespace ferry::targets::cann
