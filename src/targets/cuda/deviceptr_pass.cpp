// hipDeviceptr_t is a `void*` in HIP; its CUDA twin CUdeviceptr is an `unsigned long long`. The
// rules rename the type, and HIP code that uses such a value as the pointer it is stops compiling:
// `hipFree(d)` (cudaFree takes a void*), `hipMalloc((void**)&d, n)` is fine but `hipMalloc(&d, n)`
// is not, `s.ptr = d` into a void* member, `d == nullptr`. The other way, HIP lets any pointer
// through where the driver wants a hipDeviceptr_t (`hipMemcpyHtoD(float_ptr, ...)`,
// `hipModuleGetGlobal((void**)&p, ...)`), and CUDA's driver wants an integer.
//
// The mirror of the CUDA -> HIP target's deviceptr pass (src/targets/hip/deviceptr_pass.cpp,
// whose declarations and expression bounds, deviceptr_decls.h, this pass reads with HIP's
// spelling). Each variable declared hipDeviceptr_t in the file is typed by its uses:
//   pointer uses: an argument where the CUDA function takes a pointer (runtime calls: a void*
//     parameter, `&d` as a void**), `static_cast<T*>(d)`, a comparison with nullptr/NULL,
//     assignment to or from a name declared as a pointer;
//   driver uses: an argument where the CUDA function takes a CUdeviceptr (or `&d` a CUdeviceptr*);
//   neutral uses: C casts (`(void*)d`, `(T*)d`, `hipDeviceptr_t(p)` work on both), `&d` where any
//     pointer converts (`void* args[] = {&d}`), `d += n`, tests of truth;
//   uses Ferry cannot type (an argument of a user function, a member initialiser...).
// A local variable with more pointer than driver uses, and none Ferry cannot type, is declared
// `void*` (FRY1256): variables assigned to each other are typed together. Every use that crosses
// gets a cast (FRY1257): `(CUdeviceptr)d` / `(CUdeviceptr*)&d` for a void* one at a driver call,
// `(void*)d` / `(void**)&d` for a CUdeviceptr one at a pointer use. Arguments of driver calls that
// are not such variables: a name declared as a pointer gets `(CUdeviceptr)p` (`(CUdeviceptr*)&p`),
// a C cast to a pointer type becomes a cast to CUdeviceptr (`(void**)&p` -> `(CUdeviceptr*)&p`),
// `static_cast<hipDeviceptr_t>(p)` a reinterpret_cast. What cannot be told: FRY1258 (warning).
// Not on the way back of a round trip: the CUDA original's text comes back as it was.
#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/facts.h"
#include "targets/cuda/passes.h"
#include "targets/hip/deviceptr_decls.h"
#include "targets/hip/hip_provided.h"
#include "targets/hip/pass_util.h"

namespace ferry::targets::cuda {
namespace {

namespace dp = hip::deviceptr;
using lex::npos;

// What a HIP function's parameter is, as far as hipDeviceptr_t goes (rules/hip_provided.tsv holds
// HIP 5.2's runtime signatures).
enum class Param : std::uint8_t { Other, DevVal, DevAddr, PtrVal, PtrAddr };

Param classify(std::string_view p) {
  if (p.ends_with("=")) p.remove_suffix(1);
  if (p == "hipDeviceptr_t") return Param::DevVal;
  if (p == "hipDeviceptr_t*") return Param::DevAddr;
  if (p == "void*" || p == "const void*") return Param::PtrVal;
  if (p == "void**") return Param::PtrAddr;
  return Param::Other;
}

// One of HIP's signatures of a function: its parameters and how many have no default.
struct Signature {
  std::vector<Param> params;
  std::size_t required = 0;
  bool device_address = false;  // a hipDeviceptr_t or hipDeviceptr_t* parameter
};
using Signatures = std::unordered_map<std::string, std::vector<Signature>>;

// rules/hip_provided.tsv's runtime signatures, parsed once.
const Signatures& signatures() {
  static const Signatures table = [] {
    Signatures out;
    for (const auto& [name, lists] : hip::load_hip_provided()) {
      std::vector<std::string> sorted(lists.begin(), lists.end());
      std::sort(sorted.begin(), sorted.end());  // one answer whatever the set's order
      for (const std::string& list : sorted) {
        Signature sig;
        for (std::size_t b = 0; !list.empty() && b <= list.size();) {
          std::size_t e = list.find(',', b);
          if (e == std::string::npos) e = list.size();
          const std::string_view p(list.data() + b, e - b);
          if (!p.ends_with("=")) ++sig.required;
          sig.params.push_back(classify(p));
          sig.device_address =
              sig.device_address || sig.params.back() == Param::DevVal || sig.params.back() == Param::DevAddr;
          b = e + 1;
        }
        out[name].push_back(std::move(sig));
      }
    }
    return out;
  }();
  return table;
}

// HIP's signature of `name` called with `nargs` arguments; null when it is not known.
const Signature* signature_of(std::string_view name, std::size_t nargs) {
  const Signatures& table = signatures();
  const auto it = table.find(std::string(name));
  if (it == table.end()) return nullptr;
  for (const Signature& sig : it->second)
    if (nargs >= sig.required && nargs <= sig.params.size()) return &sig;
  return nullptr;
}

bool is_printf(std::string_view f) { return f == "printf" || f == "fprintf" || f == "sprintf" || f == "snprintf"; }

enum class Vote : std::uint8_t { Neutral, Pointer, Driver, Unknown };
// The cast a use needs when its variable's type is not what the use wants.
struct Use {
  std::size_t var = 0;    // index into vars_
  std::size_t first = 0;  // the expression (`&d`, `d`, `d + n`, with parentheses around it)
  std::size_t last = 0;
  std::size_t name = 0;  // the variable's token
  bool addr = false;     // `&d`
  Vote vote = Vote::Neutral;
  std::size_t link = npos;  // assigned to or from another tracked variable (vars_ index)
  std::size_t rhs = npos;   // `d = x`: the first token of x, which a cast goes before
  std::string what;         // in messages
};

Use make_use(std::size_t var, std::size_t ci) {
  Use u;
  u.var = var, u.first = u.last = u.name = ci;
  return u;
}

struct Var {
  std::string name;
  std::size_t decl;     // the name's code index at its declaration
  std::size_t type_ci;  // the hipDeviceptr_t word of the declaration
  bool local;           // declared in a function body (not a parameter, member or global)
  bool member;          // declared in a class body: used as `x.name`
};

class DeviceptrTyping {
 public:
  explicit DeviceptrTyping(migrate::FileMigration& f) : f_(f) {}

  void run() {
    collect_vars();
    std::vector<bool> handled(f_.code_size(), false);  // argument starts already typed as a variable use
    if (!vars_.empty()) {
      find_uses();
      decide();
      for (const Use& u : uses_) handled[u.first] = true;
      apply();
    }
    driver_arguments(handled);
  }

 private:
  // ----- the variables -----
  void collect_vars() {
    if (!f_.mentions("hipDeviceptr_t")) return;
    const std::vector<dp::Decl> decls = dp::declarations_of(f_, {}, dp::Spelling::Hip);
    // Names also declared with another type (outside class bodies, whose members are used as
    // `x.name`): never typed here.
    std::set<std::string> other;
    for (const dp::Decl& d : decls) {
      if (d.kind == dp::DeclKind::Value) continue;
      const std::size_t open = enclosing_brace(d.ci);
      if (d.kind == dp::DeclKind::Other && open != npos && class_head(open)) continue;
      other.insert(std::string(f_.text(d.ci)));
    }
    const std::vector<analysis::FunctionInfo> fns = analysis::function_definitions(f_);
    for (const dp::Decl& d : decls) {
      if (d.kind != dp::DeclKind::Value || !d.handle || !d.handle->address) continue;
      const std::string name(f_.text(d.ci));
      if (other.contains(name) || f_.excluded(d.ci) || f_.in_directive(d.ci)) continue;
      bool local = false, param = false;
      for (const analysis::FunctionInfo& fn : fns) {
        if (d.ci > fn.body_open && d.ci < fn.body_close) local = true;
        else if (d.ci > fn.name_ci && d.ci < fn.body_open) param = true;
      }
      // Declared in a class body: `struct S { hipDeviceptr_t p; }` (not in a function).
      bool member = false;
      if (!local && !param) {
        const std::size_t open = enclosing_brace(d.ci);
        member = open != npos && open > 0 && class_head(open);
      }
      // `const hipDeviceptr_t d` is a `void* const`: retyped, the const would move to the pointee.
      if (f_.is(d.type_ci + 1, "const") ||
          (d.type_ci > 0 && (f_.is(d.type_ci - 1, "const") || f_.is(d.type_ci - 1, "volatile"))))
        local = false;
      // A lambda's parameter (`[](hipDeviceptr_t p)`) is no local; `for (hipDeviceptr_t p = ...;` is.
      if (local) {
        const std::size_t open = dp::enclosing_open(f_, d.type_ci);
        if (open != npos && f_.is(open, "(") && !(open > 0 && f_.is(open - 1, "for"))) local = false;
      }
      vars_.push_back({name, d.ci, d.type_ci, local, member});
    }
    for (std::size_t k = 0; k < vars_.size(); ++k) by_name_[vars_[k].name].push_back(k);
  }

  // The `{` of the innermost brace group that holds `ci`, or npos.
  std::size_t enclosing_brace(std::size_t ci) const {
    std::size_t i = ci;
    while (i > 0) {
      --i;
      if (f_.is(i, "}")) {
        const std::size_t p = f_.partner(i);
        if (p == npos) return npos;
        i = p;
        continue;
      }
      if (f_.is(i, "{")) return i;
    }
    return npos;
  }
  // The `{` at `open` starts a struct, class or union body.
  bool class_head(std::size_t open) const {
    for (std::size_t j = open; j > 0 && open - j < 8;) {
      --j;
      if (f_.is(j, "struct") || f_.is(j, "class") || f_.is(j, "union")) return true;
      if (f_.is(j, ";") || f_.is(j, "}") || f_.is(j, "{") || f_.is(j, ")") || f_.is(j, "=")) return false;
    }
    return false;
  }

  // The variable a bare name at `ci` is (the nearest declaration above it), or npos.
  std::size_t var_at(std::size_t ci) const {
    const auto it = by_name_.find(std::string(f_.text(ci)));
    if (it == by_name_.end()) return npos;
    if (f_.is_member_name(ci)) {
      for (const std::size_t k : it->second)
        if (vars_[k].member) return k;
      return npos;
    }
    if (f_.is_member_or_qualified(ci)) return npos;
    std::size_t best = npos;
    for (const std::size_t k : it->second)
      if (!vars_[k].member && vars_[k].decl <= ci) best = k;
    return best;
  }

  // ----- the uses -----
  bool is_compare(std::size_t ci) const { return f_.is(ci, "==") || f_.is(ci, "!="); }

  // Last code index of the right-hand side that starts at `r`.
  std::size_t rhs_end(std::size_t r) const {
    std::size_t j = r;
    while (j < f_.code_size()) {
      if (f_.is(j, ";") || f_.is(j, ",") || f_.is(j, ")") || f_.is(j, "]") || f_.is(j, "}"))
        return j == r ? npos : j - 1;
      const std::size_t p = f_.partner(j);
      j = (p != npos && p > j) ? p + 1 : j + 1;
    }
    return npos;
  }

  // Whether the name at `ci` is declared as a pointer (or an array) by its nearest declaration
  // above in the file; nullopt when Ferry finds none.
  std::optional<bool> pointer_declared(std::size_t ci) const {
    const std::span<const std::uint32_t> occ = f_.occurrences(f_.text(ci));
    for (auto it = std::upper_bound(occ.begin(), occ.end(), static_cast<std::uint32_t>(ci)); it != occ.begin();) {
      const std::size_t at = *--it;
      if (at == 0 || f_.is_member_or_qualified(at)) continue;
      const std::string_view next = f_.text(at + 1);
      if (!(next == ";" || next == "," || next == "=" || next == ")" || next == "[" || next == "{")) continue;
      if (f_.is(at - 1, "*")) {
        if (at >= 2 && (f_.is_identifier(at - 2) || f_.is(at - 2, "*") || f_.is(at - 2, ",") || f_.is(at - 2, ">")) &&
            !(f_.is_identifier(at - 2) && hip::is_expression_keyword(f_.text(at - 2))) &&
            !(f_.is_identifier(at - 2) && var_at(at - 2) != npos))
          return true;
        continue;
      }
      if (f_.is_identifier(at - 1) && !hip::is_expression_keyword(f_.text(at - 1)) &&
          (at < 2 || !(f_.is(at - 2, ".") || f_.is(at - 2, "->") || f_.is(at - 2, "::")))) {
        if (var_at(at - 1) != npos) continue;  // `d x` is no declaration of x we know
        return next == "[";                    // `float a[n]` decays to a pointer
      }
    }
    return std::nullopt;
  }

  // The call whose argument [s, e] is: the callee's code index and the argument's position.
  struct CallArg {
    std::size_t callee = npos;
    std::size_t index = 0;
    std::size_t nargs = 0;
  };
  std::optional<CallArg> call_arg(std::size_t s, std::size_t e) const {
    if (s == 0 || !(f_.is(s - 1, "(") || f_.is(s - 1, ",")) || !(f_.is(e + 1, ")") || f_.is(e + 1, ",")))
      return std::nullopt;
    const std::size_t open = f_.is(s - 1, "(") ? s - 1 : dp::enclosing_open(f_, s - 1);
    if (open == npos || open == 0 || !f_.is(open, "(") || !f_.is_identifier(open - 1) ||
        hip::is_expression_keyword(f_.text(open - 1)))
      return std::nullopt;
    const std::vector<lex::ArgRange> args = f_.call_args(open);
    for (std::size_t a = 0; a < args.size(); ++a)
      if (args[a].first == s && args[a].last == e) return CallArg{open - 1, a, args.size()};
    return std::nullopt;
  }

  // Is `callee` (a code index) a driver function on CUDA?
  bool driver_call(std::size_t callee) const {
    if (!driver_file_) driver_file_ = driver_style(f_);
    return driver_function(f_, callee, *driver_file_);
  }

  void find_uses() {
    std::vector<std::string_view> names;
    for (const auto& [n, ks] : by_name_) names.push_back(n);
    for (const std::uint32_t ci : f_.occurrences(names)) {
      if (f_.excluded(ci) || f_.in_directive(ci)) continue;
      const std::size_t k = var_at(ci);
      if (k == npos) continue;
      if (ci == vars_[k].decl) {
        // `hipDeviceptr_t d = p;`: the initialiser is an assignment.
        if (f_.is(ci + 1, "=")) {
          Use u = make_use(k, ci);
          assigned_from(u, ci + 2);
          if (u.vote != Vote::Neutral || u.link != npos) uses_.push_back(u);
        }
        continue;
      }
      uses_.push_back(classify_use(k, ci));
    }
  }

  // `d = <rhs at r>`: the right-hand side decides.
  void assigned_from(Use& u, std::size_t r) const {
    u.rhs = r;
    const std::size_t r1 = rhs_end(r);
    if (r1 == npos) {
      u.vote = Vote::Unknown;
      return;
    }
    if (r1 == r && (f_.is(r, "nullptr") || f_.is(r, "NULL"))) {
      u.vote = Vote::Pointer, u.what = "assigned " + std::string(f_.text(r));
      return;
    }
    if (dp::null_literal(f_, r, r1)) return;
    // (hipDeviceptr_t)x, hipDeviceptr_t(x), reinterpret_cast<hipDeviceptr_t>(x): a CUdeviceptr on CUDA
    if ((f_.is(r, "(") && f_.is(r + 1, "hipDeviceptr_t") && f_.is(r + 2, ")")) ||
        (f_.is(r, "hipDeviceptr_t") && f_.is(r + 1, "(")) ||
        (f_.is(r, "reinterpret_cast") && f_.is(r + 2, "hipDeviceptr_t"))) {
      u.vote = Vote::Driver, u.what = "assigned a hipDeviceptr_t cast";
      return;
    }
    if (r1 == r && f_.is_identifier(r)) {
      if (const std::size_t other = var_at(r); other != npos) {
        u.link = other;
        return;
      }
      if (pointer_declared(r).value_or(false)) {
        u.vote = Vote::Pointer, u.what = "assigned the pointer '" + std::string(f_.text(r)) + "'";
        return;
      }
    }
    u.vote = Vote::Unknown;
  }

  Use classify_use(std::size_t k, std::size_t ci) const {
    Use u = make_use(k, ci);
    std::size_t s = ci, e = ci;
    if (vars_[k].member) s = dp::postfix_start(f_, ci);
    if (s > 0 && f_.is(s - 1, "&") && !dp::is_binary_at(f_, s - 1)) {
      u.addr = true;
      --s;
    } else {
      // `d + n`, `d - n`: the sum is used where d is.
      while ((f_.is(e + 1, "+") || f_.is(e + 1, "-")) && dp::is_binary_at(f_, e + 1)) {
        const std::size_t ne = dp::unary_end(f_, e + 2);
        if (ne == npos) break;
        e = ne;
      }
    }
    // Parentheses around it (not a call's).
    while (s > 0 && f_.is(s - 1, "(") && f_.is(e + 1, ")") && f_.partner(s - 1) == e + 1 &&
           !(s >= 2 && ((f_.is_identifier(s - 2) && !hip::is_expression_keyword(f_.text(s - 2))) || f_.is(s - 2, ">"))))
      --s, ++e;
    u.first = s, u.last = e;
    const std::size_t l = s - 1, r = e + 1;  // l wraps for s == 0: every is() is false then
    // Not a use of the value: `sizeof(d)`, `decltype(d)`.
    if (s >= 2 && f_.is(l, "(") && (f_.is(s - 2, "sizeof") || f_.is(s - 2, "decltype"))) return u;
    // A C cast: `(void*)d`, `(float*)d`, `(hipDeviceptr_t)d` convert either type.
    if (s > 0 && dp::is_cast_paren(f_, l)) return u;
    // static_cast<T*>(d): a pointer conversion (void* to T*); reinterpret_cast converts either.
    if (s >= 2 && f_.is(l, "(") && f_.is(r, ")") && f_.is(s - 2, ">")) {
      std::size_t j = s - 2;
      bool star = false;
      while (j > 0 && !f_.is(j, "<")) {
        if (f_.is(j, "*")) star = true;
        --j;
      }
      if (j > 0 && f_.is(j - 1, "static_cast")) {
        if (star) u.vote = Vote::Pointer, u.what = "converted with static_cast to a pointer";
        else u.vote = Vote::Unknown;
      }
      return u;
    }
    // Compound assignments and steps: arithmetic works on both (in bytes on a void*, as hipcc's).
    if (!u.addr && s == e &&
        (f_.is(r, "+=") || f_.is(r, "-=") || f_.is(r, "++") || f_.is(r, "--") ||
         (s > 0 && (f_.is(l, "++") || f_.is(l, "--")))))
      return u;
    // Tests of truth.
    if (!u.addr &&
        ((s > 0 && (f_.is(l, "!") || f_.is(l, "&&") || f_.is(l, "||"))) || f_.is(r, "&&") || f_.is(r, "||") ||
         f_.is(r, "?") || (s >= 2 && f_.is(l, "(") && f_.is(r, ")") && (f_.is(s - 2, "if") || f_.is(s - 2, "while")))))
      return u;
    // Comparisons: with nullptr/NULL a pointer's, with 0 either's.
    if (!u.addr && ((s > 0 && is_compare(l)) || is_compare(r))) {
      const bool right = is_compare(r);
      const std::size_t os = right ? r + 1 : dp::unary_start(f_, l - 1);
      const std::size_t oe = right ? dp::unary_end(f_, r + 1) : l - 1;
      if (os != npos && oe != npos && os == oe && (f_.is(os, "nullptr") || f_.is(os, "NULL"))) {
        u.vote = Vote::Pointer, u.what = "compared with " + std::string(f_.text(os));
        return u;
      }
      if (os != npos && oe != npos && dp::null_literal(f_, os, oe)) return u;
      if (os != npos && os == oe && f_.is_identifier(os)) {
        if (const std::size_t other = var_at(os); other != npos) {
          u.link = other;
          return u;
        }
      }
      u.vote = Vote::Unknown;
      return u;
    }
    // d = x
    if (!u.addr && s == e && f_.is(r, "=")) {
      Use w = u;
      assigned_from(w, r + 1);
      return w;
    }
    // x = d: what x is declared as.
    if (!u.addr && s > 1 && f_.is(l, "=") && (f_.is(r, ";") || f_.is(r, ",") || f_.is(r, ")"))) {
      std::size_t lhs = l - 1;
      if (f_.is_identifier(lhs)) {
        if (const std::size_t other = var_at(lhs); other != npos) {
          u.link = other;
          return u;
        }
        if (pointer_declared(lhs).value_or(false)) {
          u.vote = Vote::Pointer, u.what = "assigned to the pointer '" + std::string(f_.text(lhs)) + "'";
          return u;
        }
        // `s.ptr = d` with `void *ptr;` a member
        if (f_.is_member_name(lhs) && member_pointer(lhs)) {
          u.vote = Vote::Pointer, u.what = "assigned to the pointer member '" + std::string(f_.text(lhs)) + "'";
          return u;
        }
      }
      u.vote = Vote::Unknown;
      return u;
    }
    // An argument of a call.
    if (const std::optional<CallArg> c = call_arg(s, e)) {
      const std::string_view callee = f_.text(c->callee);
      if (is_printf(callee)) return u;
      const Signature* sig = signature_of(callee, c->nargs);
      if (!sig || c->index >= sig->params.size()) {
        u.vote = Vote::Unknown;
        return u;
      }
      const std::vector<Param>& params = sig->params;
      const bool driver = driver_call(c->callee);
      const std::string at = "passed to " + std::string(callee);
      switch (params[c->index]) {
        case Param::DevVal:
          if (u.addr) u.vote = Vote::Unknown;
          else if (driver) u.vote = Vote::Driver, u.what = at;
          else u.vote = Vote::Pointer, u.what = at;
          break;
        case Param::DevAddr:
          if (!u.addr) u.vote = Vote::Unknown;
          else if (driver) u.vote = Vote::Driver, u.what = at;
          break;
        case Param::PtrVal:
          if (!u.addr) u.vote = Vote::Pointer, u.what = at;
          break;
        case Param::PtrAddr:
          if (u.addr) u.vote = Vote::Pointer, u.what = at;
          else u.vote = Vote::Unknown;
          break;
        case Param::Other: u.vote = Vote::Unknown; break;
      }
      return u;
    }
    // `void* args[] = {&d, ...}`: any object pointer converts to void*.
    if (u.addr && s > 0 && (f_.is(l, "{") || f_.is(l, ",")) && (f_.is(r, "}") || f_.is(r, ","))) {
      const std::size_t open = f_.is(l, "{") ? l : dp::enclosing_open(f_, l);
      if (open != npos && f_.is(open, "{")) return u;
    }
    u.vote = Vote::Unknown;
    return u;
  }

  // The member named at `ci` (after `.` or `->`) is declared `void *name` / `T *name` in a class
  // body of this file.
  bool member_pointer(std::size_t ci) const {
    for (const std::uint32_t at : f_.occurrences(f_.text(ci))) {
      if (at < 2 || f_.is_member_or_qualified(at) || !f_.is(at - 1, "*") || !f_.is(at + 1, ";")) continue;
      const std::size_t open = enclosing_brace(at);
      if (open != npos && class_head(open)) return true;
    }
    return false;
  }

  // ----- the decision -----
  std::size_t find(std::size_t k) {
    while (parent_[k] != k) k = parent_[k] = parent_[parent_[k]];
    return k;
  }

  void decide() {
    parent_.resize(vars_.size());
    std::iota(parent_.begin(), parent_.end(), 0);
    // The declarators of one declaration share its type word; assigned variables share a type.
    std::map<std::size_t, std::size_t> by_type_word;
    for (std::size_t k = 0; k < vars_.size(); ++k) {
      const auto [it, added] = by_type_word.emplace(vars_[k].type_ci, k);
      if (!added) parent_[find(k)] = find(it->second);
    }
    for (const Use& u : uses_)
      if (u.link != npos) parent_[find(u.var)] = find(u.link);
    struct Tally {
      int pointer = 0, driver = 0, unknown = 0;
      bool all_local = true;
    };
    std::map<std::size_t, Tally> tally;
    for (std::size_t k = 0; k < vars_.size(); ++k) tally[find(k)].all_local &= vars_[k].local;
    for (const Use& u : uses_) {
      Tally& t = tally[find(u.var)];
      if (u.vote == Vote::Pointer) ++t.pointer;
      if (u.vote == Vote::Driver) ++t.driver;
      if (u.vote == Vote::Unknown) ++t.unknown;
    }
    as_pointer_.assign(vars_.size(), false);
    for (std::size_t k = 0; k < vars_.size(); ++k) {
      const Tally& t = tally[find(k)];
      as_pointer_[k] = t.all_local && t.unknown == 0 && t.pointer > t.driver;
    }
    tally_.clear();
    for (std::size_t k = 0; k < vars_.size(); ++k) {
      const Tally& t = tally[find(k)];
      tally_.push_back({t.pointer, t.driver, t.unknown});
    }
  }

  // ----- the edits -----
  bool wrap(std::size_t s, std::size_t e, const std::string& cast) {
    if (f_.edits().overlaps(f_.code(s).begin, f_.code(s).begin) || f_.edits().overlaps(f_.code(e).end, f_.code(e).end))
      return false;
    if (s == e || (f_.is(s, "(") && f_.partner(s) == e) || (f_.is(s, "&") && s + 1 == e))
      return f_.insert_before(s, cast);
    return f_.insert_before(s, cast + "(") && f_.replace_bytes(f_.code(e).end, f_.code(e).end, ")");
  }

  void apply() {
    // Declarations first: `hipDeviceptr_t a, b;` -> `void* a, *b;`.
    std::set<std::size_t> retyped_words;
    for (std::size_t k = 0; k < vars_.size(); ++k) {
      if (!as_pointer_[k]) continue;
      const Var& v = vars_[k];
      if (retyped_words.insert(v.type_ci).second) {
        if (!f_.replace(v.type_ci, v.type_ci, "void*")) continue;
      } else {
        f_.insert_before(v.decl, "*");
      }
      f_.count_converted("deviceptr");
      f_.diag(Diag::DeviceptrAsPointerCuda, v.decl,
              "'" + v.name + "' is a hipDeviceptr_t (a void* in HIP) used as a pointer (with the variables " +
                  "declared or assigned with it: " + std::to_string(tally_[k][0]) + " pointer use(s), " +
                  std::to_string(tally_[k][1]) + " driver use(s)): declared void* on CUDA, where CUdeviceptr is an " +
                  "integer",
              "nothing to do; driver calls get (CUdeviceptr) casts");
    }
    std::vector<bool> warned(vars_.size(), false);
    for (const Use& u : uses_) {
      const bool pointer = as_pointer_[u.var];
      const Var& v = vars_[u.var];
      if (u.vote == Vote::Unknown) {
        // A CUdeviceptr variable also used as a pointer: this use may want either.
        if (!pointer && tally_[u.var][0] > 0 && !warned[u.var]) {
          warned[u.var] = true;
          f_.count_unconverted("deviceptr");
          f_.diag(Diag::DeviceptrUntypedCuda, u.name,
                  "'" + v.name + "' is a hipDeviceptr_t used as a pointer elsewhere; Ferry cannot tell what '" +
                      std::string(f_.span_text(u.first, u.last)) +
                      "' wants here, so the variable stays CUdeviceptr (an integer on CUDA): left as written",
                  "cast it where a pointer is wanted: (void*)d; where the driver wants one: (CUdeviceptr)p");
        }
        continue;
      }
      std::string cast;
      if (u.vote == Vote::Driver && pointer) cast = u.addr ? "(CUdeviceptr*)" : "(CUdeviceptr)";
      if (u.vote == Vote::Pointer && !pointer) cast = u.addr ? "(void**)" : "(void*)";
      if (cast.empty()) continue;
      // `d = x` / `hipDeviceptr_t d = x`: the value assigned is cast to the variable's type.
      if (u.rhs != npos) {
        const std::size_t r1 = rhs_end(u.rhs);
        const std::string to = pointer ? "(void*)" : "(CUdeviceptr)";
        if (r1 != npos && wrap(u.rhs, r1, to)) note_cast(u, to);
        continue;
      }
      if (wrap(u.first, u.last, cast)) note_cast(u, cast);
    }
  }

  void note_cast(const Use& u, const std::string& cast) {
    f_.count_converted("deviceptr");
    const Var& v = vars_[u.var];
    const bool to_driver = cast.starts_with("(CUdeviceptr");
    const std::string wants =
        u.rhs != npos ? "" : std::string(", which wants ") + (to_driver ? "a CUdeviceptr" : "a pointer");
    f_.diag(Diag::DeviceptrCastCuda, u.name,
            "'" + v.name + "' is " + (as_pointer_[u.var] ? "void*" : "CUdeviceptr") + " on CUDA and " + u.what + wants +
                ": " + cast + " added",
            "");
  }

  // Arguments of driver calls at hipDeviceptr_t (or hipDeviceptr_t*) parameters that are not
  // the variables above: HIP takes any pointer there, CUDA's driver an integer.
  void driver_arguments(const std::vector<bool>& handled) {
    for (std::size_t ci = 0; ci + 1 < f_.code_size(); ++ci) {
      if (!f_.is_identifier(ci) || !f_.is(ci + 1, "(") || f_.excluded(ci) || f_.in_directive(ci) ||
          f_.is_member_or_qualified(ci) || !f_.text(ci).starts_with("hip"))
        continue;
      const std::vector<lex::ArgRange> args = f_.call_args(ci + 1);
      const Signature* sig = signature_of(f_.text(ci), args.size());
      if (!sig || !sig->device_address || !driver_call(ci)) continue;
      const std::vector<Param>& params = sig->params;
      for (std::size_t a = 0; a < args.size() && a < params.size(); ++a) {
        if (params[a] != Param::DevVal && params[a] != Param::DevAddr) continue;
        const lex::ArgRange& g = args[a];
        if (g.empty() || handled[g.first]) continue;
        argument(ci, a, g.first, g.last, params[a] == Param::DevAddr);
      }
    }
  }

  void argument(std::size_t callee, std::size_t index, std::size_t s, std::size_t e, bool addr) {
    const std::string at = "argument " + std::to_string(index + 1) + " of " + std::string(f_.text(callee));
    const std::string want = addr ? "CUdeviceptr*" : "CUdeviceptr";
    auto noted = [&](const std::string& what) {
      f_.count_converted("deviceptr");
      f_.diag(Diag::DeviceptrCastCuda, s,
              at + " is a " + want + " on CUDA (the driver's integer address; HIP took any pointer): " + what, "");
    };
    // Already the driver's type: hipDeviceptr_t(x), (hipDeviceptr_t)x, reinterpret_cast<...>(x).
    if (f_.is(s, "hipDeviceptr_t") || (f_.is(s, "(") && f_.is(s + 1, "hipDeviceptr_t")) ||
        (f_.is(s, "reinterpret_cast") && f_.is(s + 2, "hipDeviceptr_t")))
      return;
    if (!addr && dp::null_literal(f_, s, e) && !f_.is(s, "nullptr")) return;
    // static_cast<hipDeviceptr_t>(p): HIP's is a pointer conversion, CUDA's needs reinterpret_cast.
    if (f_.is(s, "static_cast") && f_.is(s + 1, "<") && f_.is(s + 2, "hipDeviceptr_t")) {
      if (!addr && f_.replace(s, s, "reinterpret_cast")) noted("static_cast<hipDeviceptr_t> -> reinterpret_cast");
      return;
    }
    // A C cast to a pointer type, `(void*)p`, `(void**)&p`: to the driver's type instead.
    if (f_.is(s, "(") && f_.partner(s) != npos && dp::is_cast_paren(f_, f_.partner(s)) &&
        dp::unary_end(f_, f_.partner(s) + 1) == e && f_.is(f_.partner(s) - 1, "*")) {
      const std::size_t close = f_.partner(s);
      if (f_.replace(s + 1, close - 1, want)) noted("the cast to a pointer becomes (" + want + ")");
      return;
    }
    // An expression that starts with such a cast, `(char*)p + n`: a pointer.
    if (!addr && f_.is(s, "(") && f_.partner(s) != npos && f_.partner(s) < e && dp::is_cast_paren(f_, f_.partner(s)) &&
        f_.is(f_.partner(s) - 1, "*")) {
      if (wrap(s, e, "(CUdeviceptr)")) noted("(CUdeviceptr) added");
      return;
    }
    // A name declared as a pointer (`d_out`, `d_out + n`, `&d_out` for the address).
    std::size_t lead = s;
    if (addr) {
      if (!(f_.is(s, "&") && s + 1 == e && f_.is_identifier(e))) return warn_argument(s, e, at, want);
      lead = e;
    } else if (f_.is(s, "&")) {
      // &a[i]: an element's address
      if (f_.is_identifier(s + 1) && f_.is(s + 2, "[") && f_.partner(s + 2) == e) {
        if (wrap(s, e, "(CUdeviceptr)")) noted("(CUdeviceptr) added");
        return;
      }
      return warn_argument(s, e, at, want);
    }
    // `x.ptr`, `x->ptr` with `T *ptr;` a member of a class of this file
    if (!addr && f_.is_identifier(e) && f_.is_member_name(e) && dp::postfix_start(f_, e) == s) {
      if (!member_pointer(e)) return warn_argument(s, e, at, want);
      if (wrap(s, e, "(CUdeviceptr)")) noted("(CUdeviceptr) added");
      return;
    }
    // A name alone, or a name and an offset (`d_out + n`).
    if (!f_.is_identifier(lead) || f_.is_member_or_qualified(lead) ||
        !(lead == e || ((f_.is(lead + 1, "+") || f_.is(lead + 1, "-")) && !addr)))
      return warn_argument(s, e, at, want);
    const std::optional<bool> pointer = pointer_declared(lead);
    if (!pointer) return warn_argument(s, e, at, want);
    if (!*pointer) return;  // an integer, or a type Ferry takes as given
    if (wrap(s, e, "(" + want + ")")) noted("(" + want + ") added");
  }

  void warn_argument(std::size_t s, std::size_t e, const std::string& at, const std::string& want) {
    f_.count_unconverted("deviceptr");
    f_.diag(Diag::DeviceptrUntypedCuda, s,
            at + " is a " + want + " on CUDA (HIP takes any pointer there); Ferry cannot tell the type of '" +
                std::string(f_.span_text(s, e)) + "': left as written",
            "cast it: (" + want + ")p for a pointer p");
  }

  migrate::FileMigration& f_;
  mutable std::optional<bool> driver_file_;  // driver_style, asked once when a call needs it
  std::vector<Var> vars_;
  std::unordered_map<std::string, std::vector<std::size_t>> by_name_;
  std::vector<Use> uses_;
  std::vector<std::size_t> parent_;
  std::vector<bool> as_pointer_;
  std::vector<std::array<int, 3>> tally_;  // per variable: its group's pointer, driver, unknown uses
};

}  // namespace

void deviceptr_pass(migrate::FileMigration& file) {
  if (from_cuda(file)) return;
  DeviceptrTyping(file).run();
}

}  // namespace ferry::targets::cuda
