// CUDA has integer handle types whose HIP twins are pointers: CUdeviceptr (`unsigned long long`;
// HIP's hipDeviceptr_t is a `void*`), cudaTextureObject_t / CUtexObject and cudaSurfaceObject_t /
// CUsurfObject (`unsigned long long`; HIP's hipTextureObject_t and hipSurfaceObject_t point to
// opaque structs). The rules map the names; every use of such a value as an integer then stops
// compiling (arithmetic on a pointer, integer to pointer assignment, ordered comparison with an
// integer, bit operations) — cuda-samples' driver and VMM samples do these with CUdeviceptr,
// bindlessTexture packs texture objects into two 32-bit words. The handles are one table,
// kHandles; the pass is the same for all of them, except that a CUdeviceptr is an address (a sum
// stays an address in bytes) and a texture or surface object only an opaque value.
// The project-wide half (deviceptr_scan) finds the names each translation unit declares
// with a handle type (locals, parameters, members, globals, `CUdeviceptr *` outputs and arrays;
// in the file and in the tree's headers it includes); the pass rewrites the integer uses of those
// names, and of `*(CUdeviceptr *)...` and `(CUdeviceptr)x`, in the units CUDA computes in:
//   d + n, n + d, d - n        -> (hipDeviceptr_t)((char*)d + n)   (the sum is an address)
//   d - e, (d + n) % a, d < n  -> (uintptr_t)d - (uintptr_t)e ...   (the result is an integer)
//   t & 0xFFFFFFFF, t >> 32    -> (uintptr_t)t & 0xFFFFFFFF          (any handle's bits)
//   (cudaTextureObject_t)w << 32 -> (uintptr_t)w << 32               (a cast to the handle, used as an integer)
//   d += n                     -> (d = (hipDeviceptr_t)((char*)d + (n))) /* ferry-cuda: d += n */
//   d = n (an integer)         -> d = (hipDeviceptr_t)(uintptr_t)(n)
//   return n; (an integer, in a function returning a handle) -> return (hipTextureObject_t)(uintptr_t)(n);
//   printf("%llx", d)          -> printf("%llx", (unsigned long long)d)
// FRY4110 (note) at each rewritten use; FRY4111 (warning) where the form cannot be proved (++d, a
// name declared a handle and as something else, a format Ferry cannot read, a sum of texture
// objects). The rewritten forms read back to CUDA as casts CUDA accepts, and the pass leaves a
// cast use alone, so CUDA -> HIP -> CUDA -> HIP is a fixed point. The declarations and the handle
// table are in deviceptr_decls.{h,cpp}.
#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/facts.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/deviceptr_decls.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using namespace deviceptr;
using Names = ProjectContext::IntegerHandleNames;
using lex::npos;

// ----- the pass -----

struct Use {
  std::size_t first;
  std::size_t last;
  bool ambiguous;
  const IntegerHandle* handle;  // null when ambiguous
};

bool is_mul_op(const lex::CodeView& v, std::size_t ci) {
  return (v.is(ci, "*") || v.is(ci, "/") || v.is(ci, "%")) && is_binary_at(v, ci);
}
bool is_add_op(const lex::CodeView& v, std::size_t ci) {
  return (v.is(ci, "+") || v.is(ci, "-")) && is_binary_at(v, ci);
}

// A multiplicative term around the unary expression [s, e]: extends over `*`, `/`, `%`.
std::pair<std::size_t, std::size_t> term_around(const lex::CodeView& v, std::size_t s, std::size_t e) {
  while (s > 1 && is_mul_op(v, s - 1)) s = unary_start(v, s - 2);
  while (is_mul_op(v, e + 1)) {
    const std::size_t ne = unary_end(v, e + 2);
    if (ne == npos) break;
    e = ne;
  }
  return {s, e};
}

bool is_assign(const lex::CodeView& v, std::size_t ci) { return v.is(ci, "="); }
bool is_compare(const lex::CodeView& v, std::size_t ci) {
  return v.is(ci, "<") || v.is(ci, ">") || v.is(ci, "<=") || v.is(ci, ">=") || v.is(ci, "==") || v.is(ci, "!=");
}
bool is_int_op(const lex::CodeView& v, std::size_t ci) {
  if (v.is(ci, "%") || v.is(ci, "/") || v.is(ci, "<<") || v.is(ci, ">>") || v.is(ci, "|") || v.is(ci, "^") ||
      v.is(ci, "%=") || v.is(ci, "&=") || v.is(ci, "|=") || v.is(ci, "^=") || v.is(ci, "*=") || v.is(ci, "/=") ||
      v.is(ci, "<<=") || v.is(ci, ">>="))
    return true;
  return (v.is(ci, "*") || v.is(ci, "&")) && is_binary_at(v, ci);
}

enum class Context { Address, Integer, Compare, Printf, Other };

bool is_printf(std::string_view f) {
  return f == "printf" || f == "fprintf" || f == "sprintf" || f == "snprintf" || f == "printf_s";
}

// The printf conversion (its letter) that argument `arg` of the call at `open` (a printf-family
// call) consumes; 0 when the format cannot be read.
char printf_conversion(const lex::CodeView& v, std::size_t open, std::size_t arg) {
  const std::string_view f = v.text(open - 1);
  const std::size_t fmt_arg = f == "printf" ? 0 : (f == "snprintf" ? 2 : 1);
  const std::vector<lex::ArgRange> args = v.call_args(open);
  if (fmt_arg >= args.size() || arg <= fmt_arg) return 0;
  std::string fmt;
  for (std::size_t i = args[fmt_arg].first; i <= args[fmt_arg].last; ++i) {
    if (v.code(i).kind != lex::Kind::String) return 0;
    const std::string_view s = v.text(i);
    const std::size_t q = s.find('"');
    if (q == std::string_view::npos || s.size() < q + 2) return 0;
    fmt += s.substr(q + 1, s.size() - q - 2);
  }
  std::size_t want = arg - fmt_arg - 1;
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') continue;
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < fmt.size() && std::string_view("-+ #0123456789.*hlLjzt").find(fmt[j]) != std::string_view::npos) {
      if (fmt[j] == '*') {
        if (want == 0) return 0;  // a width argument
        --want;
      }
      ++j;
    }
    if (j >= fmt.size()) return 0;
    if (want == 0) return fmt[j];
    --want;
    i = j;
  }
  return 0;
}

class DeviceptrRewriter {
 public:
  DeviceptrRewriter(migrate::FileMigration& file, const Names& names, const analysis::FileFactsSlot& facts)
      : f_(file), names_(names), facts_(facts) {}

  void run() {
    // Only the names the translation unit declares with a handle type, and those this file
    // declares with one, can be uses: the other identifiers are skipped without a lookup.
    std::vector<std::string_view> asked;
    for (const auto& [name, hip] : names_.values) asked.push_back(name);
    for (const auto& [name, hip] : names_.pointers) asked.push_back(name);
    for (const std::string& name : names_.ambiguous) asked.push_back(name);
    for (const Decl& d : declarations_of(f_, asked)) {
      local_[std::string(f_.text(d.ci))].push_back(d);
      if (d.kind != DeclKind::Other) asked.push_back(f_.text(d.ci));
    }
    candidate_.assign(f_.code_size(), false);
    for (const std::string_view name : asked)
      for (const std::uint32_t ci : f_.occurrences(name)) {
        if (!candidate_[ci]) candidates_.push_back(ci);
        candidate_[ci] = true;
      }
    find_uses();
    returns();  // first: its wrap goes before a use's own cast at the same offset
    for (std::size_t k = 0; k < uses_.size(); ++k)
      if (!done_[k]) rewrite(k);
  }

 private:
  void find_uses() {
    // Where a use can start: a name of `asked` (candidate_), or up to four tokens before a
    // handle type's name (`*(reinterpret_cast<CUdeviceptr *>(p))`, `*(CUdeviceptr *)p`,
    // `(CUdeviceptr)x`); elsewhere the loop finds nothing. Only those are visited, in file order;
    // `resume` is where the loop goes on after a use it read whole.
    std::vector<std::size_t> starts(candidates_.begin(), candidates_.end());
    for (const std::uint32_t h : handle_type_names(f_))
      for (std::size_t d = 1; d <= 4 && d <= h; ++d) starts.push_back(h - d);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    std::size_t resume = 0;
    for (const std::size_t ci : starts) {
      if (ci < resume) continue;
      if (f_.in_directive(ci) || f_.excluded(ci)) continue;
      // *(reinterpret_cast<CUdeviceptr *>(p)), *(CUdeviceptr *)p
      if (f_.is(ci, "*") && !is_binary_at(f_, ci)) {
        std::size_t j = ci + 1;
        const bool paren = f_.is(j, "(");
        if (paren) ++j;
        const IntegerHandle* cast = nullptr;
        if (f_.is(j, "reinterpret_cast") && f_.is(j + 1, "<") && is_handle_type(f_, j + 2) && f_.is(j + 3, "*") &&
            f_.is(j + 4, ">"))
          cast = handle_at(f_, j + 2);
        if (f_.is(j, "(") && is_handle_type(f_, j + 1) && f_.is(j + 2, "*") && f_.is(j + 3, ")"))
          cast = handle_at(f_, j + 1);
        if (cast) {
          std::size_t e = paren ? f_.partner(ci + 1) : unary_end(f_, j);
          if (e == npos) continue;
          if (!paren) e = unary_end(f_, j);
          add(ci, e, false, cast);
          resume = e + 1;
          continue;
        }
      }
      // (CUdeviceptr)x
      if (f_.is(ci, "(") && is_handle_type(f_, ci + 1) && f_.is(ci + 2, ")") &&
          !(ci > 0 && (f_.is(ci - 1, "sizeof") || f_.is(ci - 1, "alignof") || f_.is(ci - 1, ">") ||
                       (f_.is_identifier(ci - 1) && !is_expression_keyword(f_.text(ci - 1)))))) {
        const std::size_t e = unary_end(f_, ci + 3);
        if (e != npos) add(ci, e, false, handle_at(f_, ci + 1));
        resume = ci + 3;
        continue;
      }
      if (!candidate_[ci]) continue;
      const std::string name(f_.text(ci));
      // The nearest declaration of the name above the use in this file decides (a parameter or
      // local of the function, mostly); without one, what the translation unit declares.
      const auto value_it = names_.values.find(name), pointer_it = names_.pointers.find(name);
      bool value = value_it != names_.values.end(), pointer = pointer_it != names_.pointers.end();
      bool ambiguous = names_.ambiguous.contains(name);
      const IntegerHandle* handle = value     ? handle_named(value_it->second)
                                    : pointer ? handle_named(pointer_it->second)
                                              : nullptr;
      if (const auto it = local_.find(name); it != local_.end()) {
        // The declarations of a name are in file order: the nearest is the last at or above ci.
        const auto above = std::upper_bound(it->second.begin(), it->second.end(), ci,
                                            [](std::size_t at, const Decl& d) { return at < d.ci; });
        const Decl* nearest = above == it->second.begin() ? nullptr : &*std::prev(above);
        // `cudaTextureObject_t &texObj`: the `&` of a reference declarator is no operator.
        if (nearest && nearest->ci == ci && ci > 0 && f_.is(ci - 1, "&")) continue;
        if (nearest) {
          value = nearest->kind == DeclKind::Value;
          pointer = nearest->kind == DeclKind::Pointer;
          handle = nearest->handle;
          ambiguous = false;
        }
      }
      if (value || ambiguous) {
        if (ci > 0 && f_.is(ci - 1, "::")) continue;
        if (f_.is(ci + 1, "::")) continue;
        std::size_t s = ci, e = ci;
        if (f_.is_member_name(ci)) s = postfix_start(f_, ci);
        if (f_.is(e + 1, "(") && f_.partner(e + 1) != npos) e = f_.partner(e + 1);  // a function returning one
        add(s, e, ambiguous, ambiguous ? nullptr : handle);
        continue;
      }
      if (pointer && !f_.is_member_or_qualified(ci)) {
        if (ci > 0 && f_.is(ci - 1, "*") && !is_binary_at(f_, ci - 1)) {
          add(ci - 1, ci, false, handle);
        } else if (f_.is(ci + 1, "[") && f_.partner(ci + 1) != npos && !(ci > 0 && is_handle_type(f_, ci - 1))) {
          add(ci, f_.partner(ci + 1), false, handle);
          resume = f_.partner(ci + 1) + 1;
        }
      }
    }
    done_.assign(uses_.size(), false);
    for (std::size_t k = 0; k < uses_.size(); ++k) use_index_.emplace(std::make_pair(uses_[k].first, uses_[k].last), k);
  }

  void add(std::size_t s, std::size_t e, bool ambiguous, const IntegerHandle* handle) {
    uses_.push_back({s, e, ambiguous || !handle, handle});
  }

  std::size_t use_at(std::size_t s, std::size_t e) const {
    const auto it = use_index_.find({s, e});
    return it == use_index_.end() ? npos : it->second;
  }

  // What the expression [s, e] is used as; peels parentheses around it.
  Context context_of(std::size_t s, std::size_t e, std::size_t* other = nullptr) const {
    while (s > 0 && f_.is(s - 1, "(") && f_.is(e + 1, ")") && f_.partner(s - 1) == e + 1) {
      const std::size_t b = s - 1;
      if (b > 0 && ((f_.is_identifier(b - 1) && !is_expression_keyword(f_.text(b - 1))) || f_.is(b - 1, ">"))) break;
      --s;
      ++e;
    }
    const std::size_t l = s - 1;  // wraps for s == 0: every is() is false then
    const std::size_t r = e + 1;
    if (s > 0 && (is_int_op(f_, l) || ((f_.is(l, "-") || f_.is(l, "~")) && !is_binary_at(f_, l))))
      return Context::Integer;
    if (is_int_op(f_, r)) return Context::Integer;
    if (s > 0 && is_compare(f_, l)) {
      if (other) *other = l;
      return Context::Compare;
    }
    if (is_compare(f_, r)) {
      if (other) *other = r;
      return Context::Compare;
    }
    if (s > 0 && (f_.is(l, "(") || f_.is(l, ","))) {
      const std::size_t open = f_.is(l, "(") ? l : enclosing_open(f_, l);
      if (open != npos && open > 0 && f_.is(open, "(")) {
        if (f_.is_identifier(open - 1) && is_printf(f_.text(open - 1))) return Context::Printf;
        if (f_.is(open - 1, ">")) {
          // static_cast<T>(x) with T an integer type
          std::size_t j = open - 1;
          bool star = false;
          while (j > 0 && !f_.is(j, "<")) {
            if (f_.is(j, "*")) star = true;
            --j;
          }
          if (j > 0 && f_.is(j - 1, "static_cast") && !star) return Context::Integer;
        }
      }
    }
    // `x = d + n` where x is declared with another type
    if (s > 0 && is_assign(f_, l) && l > 0 && f_.is_identifier(l - 1)) {
      const std::string lhs(f_.text(l - 1));
      if (!names_.values.contains(lhs) && !names_.ambiguous.contains(lhs) && l >= 2 &&
          is_builtin_type_word(f_.text(l - 2)))
        return Context::Integer;
      if (!names_.values.contains(lhs) && !names_.ambiguous.contains(lhs) && l >= 2 &&
          (f_.is(l - 2, "size_t") || f_.is(l - 2, "uintptr_t") || f_.is(l - 2, "uint64_t") ||
           f_.is(l - 2, "intptr_t") || f_.is(l - 2, "ptrdiff_t") || f_.is(l - 2, "int64_t")))
        return Context::Integer;
    }
    return Context::Address;
  }

  // How a message names the use that ends at `ci`: the name, or the whole use when it is a form.
  std::string shown(std::size_t ci) const {
    for (const Use& u : uses_)
      if (u.last == ci && u.first != ci) {
        std::string t(f_.span_text(u.first, u.last));
        return t.size() > 60 ? t.substr(0, 57) + "..." : t;
      }
    return std::string(f_.text(ci));
  }
  void note(std::size_t ci, const IntegerHandle& h, const std::string& what) {
    f_.count_converted("deviceptr");
    f_.diag(Diag::DeviceptrIntegerUse, ci,
            "'" + shown(ci) + "' is " + std::string(h.what) + ", an integer in CUDA and " + std::string(h.hip_is) +
                " in HIP (" + std::string(h.hip) + "): " + what,
            h.address ? "nothing to do; the arithmetic stays in bytes, as CUDA's"
                      : "nothing to do; the handle's bits are CUDA's");
  }
  // `h` is null for a name declared with two types.
  void warn(std::size_t ci, const IntegerHandle* h, const std::string& what) {
    f_.count_unconverted("deviceptr");
    const std::string is = h ? std::string(h->what) + " (" + std::string(h->hip_is) + " in HIP)"
                             : std::string("declared with a CUDA integer handle type (a pointer in HIP)");
    f_.diag(Diag::DeviceptrIntegerUseLeft, ci,
            "'" + shown(ci) + "' is " + is + " used as an integer here; " + what + ": left as written",
            !h || h->address ? "cast it: (hipDeviceptr_t)((char*)d + n) for an address, (uintptr_t)d for an integer"
                             : "cast it: (uintptr_t)t for its bits, (" + std::string(h->hip) +
                                   ")(uintptr_t)(n) for a handle made of bits");
  }

  bool ins(std::size_t ci, const std::string& text) { return f_.insert_before(ci, text); }
  // The use read as an integer of `type`: `(type)d`; a cast to the handle, `(cudaTextureObject_t)w`,
  // becomes `(type)w` (CUDA's cast is an integer conversion too).
  // Both record what they replace (rewrite/roundtrip_record.h: spelling, span), for the way back:
  // `(uintptr_t /* ferry-cuda: cudaTextureObject_t */)w`, `((uintptr_t)d) /* ferry-cuda: d */`.
  bool as_integer(const Use& u, std::string_view type) {
    if (f_.is(u.first, "(") && is_handle_type(f_, u.first + 1) && f_.is(u.first + 2, ")"))
      return f_.replace(u.first + 1, u.first + 1,
                        std::string(type) + " " + rewrite::record::make(f_.text(u.first + 1)));
    const std::string_view original = f_.span_text(u.first, u.last);
    if (!rewrite::record::recordable(original)) return ins(u.first, "(" + std::string(type) + ")");
    return ins(u.first, "((" + std::string(type) + ")") && ins_after(u.last, ") " + rewrite::record::make(original));
  }
  bool ins_after(std::size_t ci, const std::string& text) {
    return f_.replace_bytes(f_.code(ci).end, f_.code(ci).end, text);
  }

  void rewrite(std::size_t k) {
    const Use u = uses_[k];
    done_[k] = true;
    const std::size_t s = u.first, e = u.last;
    const std::size_t name = e;  // for messages: the last token (the name in most forms)
    // Already converted: a cast of the value (`(char*)d`, `(uintptr_t)d`, what the way back writes).
    if (s > 0 && is_cast_paren(f_, s - 1)) return;
    if (f_.is(e + 1, "++") || f_.is(e + 1, "--") || (s > 0 && (f_.is(s - 1, "++") || f_.is(s - 1, "--")))) {
      warn(name, u.handle, "incremented or decremented (CUDA steps one byte)");
      return;
    }
    if (f_.is(e + 1, "+=") || f_.is(e + 1, "-=")) {
      compound(k);
      return;
    }
    if (f_.is(e + 1, "=")) {
      assignment(k);
      return;
    }
    // In a sum or difference.
    const auto [ts, te] = term_around(f_, s, e);
    if ((ts == s && te == e) && ((ts > 0 && is_add_op(f_, ts - 1)) || is_add_op(f_, te + 1))) {
      sum(ts, te);
      return;
    }
    std::size_t other = npos;
    const Context c = context_of(s, e, &other);
    if (c == Context::Address || c == Context::Other) return;
    if (u.ambiguous) {
      warn(name, u.handle, "the name is also declared with another type");
      return;
    }
    if (c == Context::Compare) {
      // With a null pointer constant or another CUdeviceptr the pointer comparison is CUDA's.
      // The other operand is the whole sum beside the operator (`new_ptr != d_p + n`: an integer,
      // since the sum of a handle compared is computed as one).
      const bool right = other > e;
      std::size_t os = right ? other + 1 : unary_start(f_, other - 1);
      std::size_t oe = right ? unary_end(f_, other + 1) : other - 1;
      if (right)
        while (oe != npos && is_add_op(f_, oe + 1)) oe = unary_end(f_, oe + 2);
      else
        while (os != npos && os > 1 && is_add_op(f_, os - 1)) os = unary_start(f_, os - 2);
      if (os != npos && oe != npos && (null_literal(f_, os, oe) || use_at(os, oe) != npos)) return;
      if (as_integer(u, "uintptr_t")) note(name, *u.handle, "compared with an integer as (uintptr_t)");
      return;
    }
    if (c == Context::Printf) {
      const std::size_t open = enclosing_open(f_, s);
      const std::vector<lex::ArgRange> args = f_.call_args(open);
      std::size_t arg = npos;
      for (std::size_t a = 0; a < args.size(); ++a)
        if (args[a].first <= s && e <= args[a].last) arg = a;
      const char conv = arg == npos ? 0 : printf_conversion(f_, open, arg);
      if (conv == 'p' || conv == 's') return;
      if (conv == 0) {
        warn(name, u.handle, "printed with a format Ferry cannot read");
        return;
      }
      if (as_integer(u, "unsigned long long")) note(name, *u.handle, "printed as (unsigned long long)");
      return;
    }
    if (as_integer(u, "uintptr_t")) note(name, *u.handle, "used as an integer, as (uintptr_t)");
  }

  // d + n, n + d - e, ...: the additive expression that holds the term [ts, te].
  void sum(std::size_t ts, std::size_t te) {
    std::vector<std::pair<std::size_t, std::size_t>> terms = {{ts, te}};
    std::size_t a = ts, b = te;
    while (a > 1 && is_add_op(f_, a - 1)) {
      const auto [s2, e2] = term_around(f_, unary_start(f_, a - 2), a - 2);
      terms.insert(terms.begin(), {s2, e2});
      a = s2;
    }
    while (is_add_op(f_, b + 1)) {
      const std::size_t ue = unary_end(f_, b + 2);
      if (ue == npos) break;
      const auto [s2, e2] = term_around(f_, b + 2, ue);
      terms.push_back({s2, e2});
      b = e2;
    }
    // The first term is added; each later one has the sign of the operator before it.
    std::vector<int> signs(terms.size(), 1);
    for (std::size_t i = 1; i < terms.size(); ++i) signs[i] = f_.is(terms[i].first - 1, "-") ? -1 : 1;
    int net = 0;
    std::vector<std::pair<std::size_t, std::size_t>> ptr_terms;  // (term, use)
    bool ambiguous = false;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const std::size_t k = use_at(terms[i].first, terms[i].second);
      if (k == npos) continue;
      done_[k] = true;
      ambiguous = ambiguous || uses_[k].ambiguous;
      net += signs[i];
      ptr_terms.emplace_back(i, k);
    }
    if (ptr_terms.empty()) return;
    const std::size_t name = terms[ptr_terms.front().first].second;
    const IntegerHandle* h = uses_[ptr_terms.front().second].handle;
    if (ambiguous) {
      warn(name, h, "in a sum, and the name is also declared with another type");
      return;
    }
    const Context c = context_of(a, b);
    const bool address = net == 1 && c != Context::Integer && c != Context::Compare && c != Context::Printf;
    if (!address && net != 0 && c != Context::Integer && c != Context::Compare) {
      warn(name, h, "in a sum whose value is neither an address nor a difference");
      return;
    }
    if (address && !h->address) {
      warn(name, h, "in a sum, and a handle is no address");
      return;
    }
    // Recorded (rewrite/roundtrip_record.h, span) where the sum stands where parentheses can open:
    // `((hipDeviceptr_t)((char*)d + n)) /* ferry-cuda: d + n */`.
    const std::string_view original = f_.span_text(a, b);
    const bool record = address && rewrite::record::recordable(original) && rewrite::record::span_can_open(f_, a);
    // The wrap first: insertions at one offset keep their order.
    bool ok = !address || ins(a, (record ? "((" : "(") + std::string(h->hip) + ")(");
    bool first_plus = address;
    for (const auto& [i, k] : ptr_terms) {
      if (first_plus && signs[i] == 1) {
        ok = ins(terms[i].first, "(char*)") && ok;
        first_plus = false;
      } else {
        ok = as_integer(uses_[k], "uintptr_t") && ok;
      }
    }
    if (address) ok = ins_after(b, record ? ")) " + rewrite::record::make(original) : ")") && ok;
    if (!ok) return;
    note(name, *h,
         address ? "the sum is an address in bytes: (" + std::string(h->hip) + ")((char*)d + n)"
                 : std::string("computed as an integer: (uintptr_t)d"));
  }

  // Last code index of the assignment's right-hand side that starts at `r`.
  std::size_t rhs_end(std::size_t r) const {
    std::size_t j = r;
    while (j < f_.code_size()) {
      if (f_.is(j, ";") || f_.is(j, ",") || f_.is(j, ")") || f_.is(j, "]") || f_.is(j, "}")) return j - 1;
      const std::size_t p = f_.partner(j);
      j = (p != npos && p > j) ? p + 1 : j + 1;
    }
    return npos;
  }

  // Is [r0, r1] an integer by its operator: outside any parentheses, a bit operation or shift
  // (`(t << 32) | w`, `(d + a - 1) & ~(a - 1)`), or a product or remainder that is not inside a sum
  // (`n * 4`, not `d + n * 4`, which the sum rewrite makes an address)?
  bool integer_valued(std::size_t r0, std::size_t r1) const {
    while (f_.is(r0, "(") && f_.partner(r0) == r1 && r1 > r0 + 1) {
      ++r0;
      --r1;
    }
    bool bits = false, product = false, sum = false;
    for (std::size_t j = r0; j <= r1;) {
      if (j > r0) {
        if (f_.is(j, "?") || f_.is(j, "=") || is_compare(f_, j)) return false;
        if (f_.is(j, "|") || f_.is(j, "^") || f_.is(j, "<<") || f_.is(j, ">>") ||
            (f_.is(j, "&") && is_binary_at(f_, j)))
          bits = true;
        else if (is_mul_op(f_, j)) product = true;
        else if (is_add_op(f_, j)) sum = true;
      }
      const std::size_t p = f_.partner(j);
      j = (p != npos && p > j) ? p + 1 : j + 1;
    }
    return bits || (product && !sum);
  }

  // Does [r0, r1] hold a value HIP takes as the handle's type as written?
  bool pointer_valued(std::size_t r0, std::size_t r1) const {
    if (null_literal(f_, r0, r1)) return true;
    if (integer_valued(r0, r1)) return false;
    for (std::size_t j = r0; j <= r1;) {
      for (const Use& u : uses_)
        if (u.first == j) return true;  // a CUdeviceptr term: the sum pass makes it an address
      const std::size_t p = f_.partner(j);
      j = (p != npos && p > j) ? p + 1 : j + 1;
    }
    // (hipDeviceptr_t)..., reinterpret_cast<...>: what the way back wrote, or a pointer cast
    if (f_.is(r0, "(") && (handle_named(f_.text(r0 + 1)) || f_.is(r0 + 1, "void"))) return true;
    if (f_.is(r0, "(") && f_.is(r0 + 1, "(") && handle_named(f_.text(r0 + 2))) return true;  // a recorded cast
    return false;
  }

  // d = n (or `CUdeviceptr d = n;`): an integer value becomes (hipDeviceptr_t)(uintptr_t)(n).
  void assignment(std::size_t k) {
    const Use u = uses_[k];
    const std::size_t r0 = u.last + 2;
    const std::size_t r1 = rhs_end(r0);
    if (r1 == npos || r1 < r0 || pointer_valued(r0, r1)) return;
    if (u.ambiguous) {
      warn(u.last, u.handle, "assigned a value, and the name is also declared with another type");
      return;
    }
    const std::string cast = "(" + std::string(u.handle->hip) + ")(uintptr_t)(";
    // Recorded (rewrite/roundtrip_record.h, span): `((hipDeviceptr_t)(uintptr_t)(n)) /* ferry-cuda: n */`.
    const std::string_view original = f_.span_text(r0, r1);
    const bool record = rewrite::record::recordable(original);
    if (ins(r0, (record ? "(" : "") + cast) && ins_after(r1, record ? ")) " + rewrite::record::make(original) : ")"))
      note(u.last, *u.handle, "assigned an integer, as " + cast + "n)");
  }

  // `return n;` of an integer in a function declared to return a handle: (hipTextureObject_t)(uintptr_t)(n).
  void returns() {
    if (handle_type_names(f_).empty()) return;  // no function returns a handle
    for (const analysis::FunctionInfo& fn : facts_.get().functions) {
      const IntegerHandle* h = fn.name_ci > 0 ? handle_at(f_, fn.name_ci - 1) : nullptr;
      if (!h) continue;
      for (std::size_t ci = fn.body_open + 1; ci < fn.body_close; ++ci) {
        if (!f_.is(ci, "return") || f_.excluded(ci)) continue;
        const std::size_t r0 = ci + 1, r1 = rhs_end(r0);
        if (r1 == npos || r1 < r0 || !f_.is(r1 + 1, ";") || !integer_valued(r0, r1)) continue;
        const std::string cast = "(" + std::string(h->hip) + ")(uintptr_t)(";
        // Recorded (span): `return ((hipTextureObject_t)(uintptr_t)(n)) /* ferry-cuda: n */;`.
        const std::string_view original = f_.span_text(r0, r1);
        const bool record = rewrite::record::recordable(original);
        if (!ins(r0, (record ? "(" : "") + cast) ||
            !ins_after(r1, record ? ")) " + rewrite::record::make(original) : ")"))
          continue;
        f_.count_converted("deviceptr");
        f_.diag(Diag::DeviceptrIntegerUse, ci,
                "'" + fn.name + "' returns " + std::string(h->what) + ", an integer in CUDA and " +
                    std::string(h->hip_is) + " in HIP (" + std::string(h->hip) + "): the integer it returns is " +
                    "converted as " + cast + "n)",
                h->address ? "nothing to do; the arithmetic stays in bytes, as CUDA's"
                           : "nothing to do; the handle's bits are CUDA's");
      }
    }
  }

  // d += n -> d = (hipDeviceptr_t)((char*)d + (n)), for an lvalue of names only.
  void compound(std::size_t k) {
    const Use u = uses_[k];
    for (std::size_t j = u.first; j <= u.last; ++j)
      if (!(f_.is_identifier(j) || f_.is(j, ".") || f_.is(j, "->") || f_.is(j, "*")) || is_handle_type(f_, j)) {
        warn(u.last, u.handle, "advanced in place through an expression Ferry does not repeat");
        return;
      }
    if (u.ambiguous) {
      warn(u.last, u.handle, "advanced in place, and the name is also declared with another type");
      return;
    }
    if (!u.handle->address) {
      warn(u.last, u.handle, "advanced in place, and a handle is no address");
      return;
    }
    const std::size_t op = u.last + 1;
    const std::size_t r1 = rhs_end(op + 1);
    if (r1 == npos || r1 <= op) return;
    const std::string lvalue(f_.span_text(u.first, u.last));
    const std::string sign = f_.is(op, "+=") ? " + (" : " - (";
    const std::string hip(u.handle->hip);
    // recorded as a span, `(d = (hipDeviceptr_t)((char*)d + (n))) /* ferry-cuda: d += n */`, for
    // the way back (rewrite/roundtrip_record.h), where its parentheses can open
    const std::string_view original = f_.span_text(u.first, r1);
    const bool record = rewrite::record::recordable(original) && rewrite::record::span_can_open(f_, u.first);
    if ((!record || ins(u.first, "(")) &&
        f_.replace_bytes(f_.code(op).begin, f_.code(op + 1).begin, "= (" + hip + ")((char*)" + lvalue + sign) &&
        ins_after(r1, record ? "))) " + rewrite::record::make(original) : "))"))
      note(u.last, *u.handle, "advanced in bytes: d = (" + hip + ")((char*)d + (n))");
  }

  migrate::FileMigration& f_;
  const Names& names_;
  const analysis::FileFactsSlot& facts_;  // the functions (returns)
  std::vector<Use> uses_;
  std::vector<bool> done_;
  std::unordered_map<std::string, std::vector<Decl>> local_;  // this file's declarations, by name
  std::vector<bool> candidate_;          // per code index: an identifier named as a handle somewhere (run)
  std::vector<std::size_t> candidates_;  // those code indices
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> use_index_;  // (first, last) -> the first use there
};

}  // namespace

void deviceptr_pass(migrate::FileMigration& file, const analysis::FileFactsSlot& facts) {
  const auto& all = file.project().integer_handle_names;
  static const Names kNone;
  const Names* names = &kNone;
  const std::string path(file.path());
  if (const auto it = all.find(path); it != all.end()) names = it->second.get();
  else if (file.project().single_file)
    for (const auto& [key, n] : all)  // a single file is collected under its name
      if (path.size() > key.size() && path.ends_with(key) && path[path.size() - key.size() - 1] == '/') names = n.get();
  if (names == &kNone && !mentions_handle(file.source())) return;
  DeviceptrRewriter(file, *names, facts).run();
}

}  // namespace ferry::targets::hip
