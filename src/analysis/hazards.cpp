#include "analysis/hazards.h"
#include "analysis/wave64_fix.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <string>

namespace ferry::analysis {

using migrate::FileMigration;
using migrate::npos;
using migrate::ArgRange;

namespace {

// ---------------------------------------------------------------------------------------------
// Small token helpers

bool is_one_of(std::string_view t, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), t) != set.end();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Parses an integer literal (decimal, hex, octal, binary, digit separators, u/l/z suffixes).
std::optional<long long> parse_int(std::string_view t) {
  std::string s;
  for (char c : t)
    if (c != '\'') s += c;
  while (!s.empty() && (s.back() == 'u' || s.back() == 'U' || s.back() == 'l' || s.back() == 'L' ||
                        s.back() == 'z' || s.back() == 'Z'))
    s.pop_back();
  if (s.empty()) return std::nullopt;
  int base = 10;
  std::size_t i = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, i = 2;
  else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, i = 2;
  else if (s.size() > 1 && s[0] == '0') base = 8, i = 1;
  unsigned long long v = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return std::nullopt;  // a float, or something else
    if (d >= base) return std::nullopt;
    if (v > (~0ull >> 5)) return std::nullopt;
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  return static_cast<long long>(v);
}

// A 32-bit integer literal: no 'l'/'L' in its suffix (int and unsigned are 32 bits everywhere
// CUDA and HIP run; long is 64 bits on the Linux targets, so `1ul` is fine).
bool is_32bit_literal(std::string_view t) {
  return t.find('l') == std::string_view::npos && t.find('L') == std::string_view::npos;
}

const std::map<std::string_view, unsigned>& type_sizes() {
  static const std::map<std::string_view, unsigned> kSizes = {
      {"char", 1},        {"bool", 1},          {"int8_t", 1},       {"uint8_t", 1},
      {"char2", 2},       {"uchar2", 2},        {"char4", 4},        {"uchar4", 4},
      {"short", 2},       {"int16_t", 2},       {"uint16_t", 2},     {"half", 2},
      {"__half", 2},      {"__nv_bfloat16", 2}, {"nv_bfloat16", 2},  {"hip_bfloat16", 2},
      {"__hip_bfloat16", 2}, {"half2", 4},      {"__half2", 4},      {"__nv_bfloat162", 4},
      {"int", 4},         {"unsigned", 4},      {"float", 4},        {"int32_t", 4},
      {"uint32_t", 4},    {"uint", 4},          {"long", 8},         {"double", 8},
      {"int64_t", 8},     {"uint64_t", 8},      {"size_t", 8},       {"float2", 8},
      {"int2", 8},        {"uint2", 8},         {"float3", 12},      {"int3", 12},
      {"float4", 16},     {"int4", 16},         {"uint4", 16},       {"double2", 16},
      {"longlong2", 16},  {"double4", 32},
  };
  return kSizes;
}

// Size of a type written as identifiers ("unsigned int", "long long", "float"), 0 if unknown.
unsigned type_size(const std::vector<std::string_view>& words) {
  std::vector<std::string_view> w;
  for (std::string_view s : words)
    if (!is_one_of(s, {"const", "volatile", "static", "signed", "std", "__restrict__", "struct"}))
      w.push_back(s);
  if (w.empty()) return 0;
  if (w.size() >= 2 && w[w.size() - 1] == "long" && w[w.size() - 2] == "long") return 8;
  if (w.size() >= 2 && w.back() == "int") w.pop_back();  // "unsigned int", "long int"
  if (w.size() == 2 && w[0] == "unsigned") w.erase(w.begin());
  if (w.size() == 2 && w[0] == "long" && w[1] == "long") return 8;
  if (w.size() != 1) return 0;
  const auto it = type_sizes().find(w[0]);
  return it == type_sizes().end() ? 0 : it->second;
}

bool is_integer_type_word(std::string_view s) {
  return is_one_of(s, {"int", "unsigned", "signed", "long", "short", "char", "size_t", "int32_t",
                       "uint32_t", "int64_t", "uint64_t", "int16_t", "uint16_t", "int8_t",
                       "uint8_t", "uint", "ptrdiff_t", "ssize_t", "auto", "std", "bool"});
}

bool is_keyword_stop(std::string_view s) {
  return is_one_of(s, {"return", "case", "throw", "else", "do", "co_return", "co_yield", "sizeof",
                       "const", "constexpr", "static", "volatile", "int", "unsigned", "auto",
                       "long", "short", "char", "float", "double", "bool", "void", "signed"});
}

// Names that say "the width of a warp": WARP_SIZE, kWarpSize, warp_width, THREADS_PER_WARP,
// WAVEFRONT_SIZE. Plural "warps" means a count of warps and is excluded.
bool contains_nocase(std::string_view s, std::string_view lower_word) {
  if (s.size() < lower_word.size()) return false;
  for (std::size_t i = 0; i + lower_word.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < lower_word.size() &&
           std::tolower(static_cast<unsigned char>(s[i + k])) == lower_word[k])
      ++k;
    if (k == lower_word.size()) return true;
  }
  return false;
}

}  // namespace

bool is_warp_width_name(std::string_view name) {
  // Most identifiers say neither: answer those without building the lowercase copy.
  if (!contains_nocase(name, "warp") && !contains_nocase(name, "wave")) return false;
  std::string l = lower(name);
  for (std::size_t at = l.find("warpsize"); at != std::string::npos; at = l.find("warpsize"))
    l.replace(at, 8, "warp_size");  // kWarpSize is a width, kWarpsPerBlock a count
  if (l.find("warps") != std::string::npos || l.find("waves") != std::string::npos) return false;
  const bool warp = l.find("warp") != std::string::npos || l.find("wave") != std::string::npos;
  if (!warp) return false;
  return l.find("size") != std::string::npos || l.find("width") != std::string::npos ||
         l.find("lanes") != std::string::npos || l.find("threads") != std::string::npos ||
         l.find("len") != std::string::npos || l == "warp" || l == "kwarp";
}

namespace {

// __syncwarp is not here: its mask only names the lanes that wait, it moves no data, and HIP's
// replacement (a wavefront barrier) is right for any mask.
const std::array<std::string_view, 17> kWarpSyncFunctions = {
    "__shfl_sync",       "__shfl_up_sync",     "__shfl_down_sync",  "__shfl_xor_sync",
    "__ballot_sync",     "__any_sync",         "__all_sync",        "__uni_sync",
    "__match_any_sync",  "__match_all_sync",   "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync",  "__reduce_and_sync", "__reduce_or_sync",
    "__reduce_xor_sync", "__fns"};

bool is_ballot_call_name(std::string_view t) {
  return t == "__ballot_sync" || t == "__ballot" || t == "__activemask";
}

// Binary-operator binding strength (higher binds tighter); 0 for anything else.
int binary_prec(std::string_view op) {
  if (is_one_of(op, {"*", "/", "%"})) return 13;
  if (is_one_of(op, {"+", "-"})) return 12;
  if (is_one_of(op, {"<<", ">>"})) return 11;
  if (is_one_of(op, {"<", "<=", ">", ">="})) return 10;
  if (is_one_of(op, {"==", "!="})) return 9;
  if (op == "&") return 8;
  if (op == "^") return 7;
  if (op == "|") return 6;
  if (op == "&&") return 5;
  if (op == "||") return 4;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// A view over a FileMigration with the precomputed bracket partners.

struct View {
  const FileMigration& f;
  const FileFacts& facts;

  [[nodiscard]] std::size_t size() const { return f.code_size(); }
  [[nodiscard]] std::string_view t(std::size_t ci) const {
    return ci < f.code_size() ? f.text(ci) : std::string_view();
  }
  // Out of range a token reads as "": only an empty `s` matches there.
  // Inlined so that the literal's key (lex::short_key) folds to a constant.
  [[nodiscard, gnu::always_inline]] bool is(std::size_t ci, std::string_view s) const {
    return ci < f.code_size() ? f.is(ci, s) : s.empty();
  }
  [[nodiscard]] bool ident(std::size_t ci) const { return f.is_identifier(ci); }
  [[nodiscard]] bool number(std::size_t ci) const {
    return ci < size() && f.code(ci).kind == lex::Kind::Number;
  }
  [[nodiscard]] std::size_t partner(std::size_t ci) const {
    return ci < facts.partner.size() ? facts.partner[ci] : npos;
  }
  [[nodiscard]] bool directive(std::size_t ci) const { return f.code(ci).in_directive; }
  // A token that can end an operand: then a following '&', '*', '-', '+' is binary.
  [[nodiscard]] bool ends_operand(std::size_t ci) const {
    if (ci >= size()) return false;
    const lex::Kind k = f.code(ci).kind;
    if (k == lex::Kind::Identifier) return !is_keyword_stop(t(ci));
    return k == lex::Kind::Number || k == lex::Kind::String || k == lex::Kind::Char ||
           is(ci, ")") || is(ci, "]");
  }
  [[nodiscard]] bool member_name(std::size_t ci) const {
    return ci > 0 && (is(ci - 1, ".") || is(ci - 1, "->"));
  }
  // Last code index of the directive that starts (or continues) at `ci`.
  [[nodiscard]] std::size_t directive_last(std::size_t ci) const {
    std::size_t j = ci;
    while (j + 1 < size() && directive(j + 1)) {
      bool newline = false;
      for (std::size_t ti = f.token_index(j) + 1; ti < f.token_index(j + 1); ++ti)
        if (f.tokens()[ti].kind == lex::Kind::Newline) newline = true;
      if (newline) break;
      ++j;
    }
    return j;
  }
};

// ---------------------------------------------------------------------------------------------
// Constant expressions

class Evaluator {
 public:
  Evaluator(const View& v, std::size_t first, std::size_t last, const FunctionInfo* scope)
      : v_(v), i_(first), last_(last), scope_(scope) {}

  std::optional<long long> run() {
    if (i_ > last_) return std::nullopt;
    auto r = ternary();
    if (!r || i_ != last_ + 1) return std::nullopt;
    return r;
  }

 private:
  [[nodiscard]] bool at(std::string_view s) const { return i_ <= last_ && v_.is(i_, s); }

  std::optional<long long> ternary() {
    auto c = binary(4);
    if (!c || !at("?")) return c;
    ++i_;
    auto a = ternary();
    if (!a || !at(":")) return std::nullopt;
    ++i_;
    auto b = ternary();
    if (!b) return std::nullopt;
    return *c ? a : b;
  }

  std::optional<long long> binary(int min_prec) {
    auto lhs = unary();
    while (lhs && i_ <= last_) {
      const std::string_view op = v_.t(i_);
      const int p = binary_prec(op);
      if (p == 0 || p < min_prec) break;
      ++i_;
      auto rhs = binary(p + 1);
      if (!rhs) return std::nullopt;
      const long long a = *lhs, b = *rhs;
      if (op == "*") lhs = a * b;
      else if (op == "/") { if (b == 0) return std::nullopt; lhs = a / b; }
      else if (op == "%") { if (b == 0) return std::nullopt; lhs = a % b; }
      else if (op == "+") lhs = a + b;
      else if (op == "-") lhs = a - b;
      else if (op == "<<") { if (b < 0 || b > 62) return std::nullopt; lhs = a << b; }
      else if (op == ">>") { if (b < 0 || b > 62) return std::nullopt; lhs = a >> b; }
      else if (op == "<") lhs = a < b;
      else if (op == "<=") lhs = a <= b;
      else if (op == ">") lhs = a > b;
      else if (op == ">=") lhs = a >= b;
      else if (op == "==") lhs = a == b;
      else if (op == "!=") lhs = a != b;
      else if (op == "&") lhs = a & b;
      else if (op == "^") lhs = a ^ b;
      else if (op == "|") lhs = a | b;
      else if (op == "&&") lhs = a && b;
      else if (op == "||") lhs = a || b;
    }
    return lhs;
  }

  std::optional<long long> unary() {
    if (i_ > last_) return std::nullopt;
    if (at("-")) { ++i_; auto x = unary(); return x ? std::optional(-*x) : std::nullopt; }
    if (at("+")) { ++i_; return unary(); }
    if (at("~")) {
      ++i_;
      const bool narrow = i_ <= last_ && v_.number(i_) && is_32bit_literal(v_.t(i_));
      auto x = unary();
      if (!x) return std::nullopt;
      // ~0u is 0xffffffff: keep 32-bit literals 32-bit.
      return narrow ? static_cast<long long>(~static_cast<std::uint32_t>(*x)) : ~*x;
    }
    if (at("!")) { ++i_; auto x = unary(); return x ? std::optional<long long>(!*x) : std::nullopt; }
    if (at("(")) {
      const std::size_t close = v_.partner(i_);
      if (close == npos || close > last_) return std::nullopt;
      // A cast to an integer type: every token inside is an integer type word.
      bool cast = close > i_ + 1;
      for (std::size_t j = i_ + 1; j < close; ++j)
        cast = cast && ((v_.ident(j) && is_integer_type_word(v_.t(j))) || v_.is(j, "::"));
      if (cast && close < last_) {
        i_ = close + 1;
        return unary();
      }
      ++i_;
      auto x = ternary();
      if (!x || !at(")")) return std::nullopt;
      ++i_;
      return x;
    }
    return primary();
  }

  std::optional<long long> primary() {
    if (i_ > last_) return std::nullopt;
    const std::string_view t = v_.t(i_);
    if (v_.number(i_)) {
      ++i_;
      return parse_int(t);
    }
    if (!v_.ident(i_)) return std::nullopt;
    if (t == "true") return ++i_, 1;
    if (t == "false") return ++i_, 0;
    if (t == "sizeof" && v_.is(i_ + 1, "(")) {
      const std::size_t close = v_.partner(i_ + 1);
      if (close == npos || close > last_) return std::nullopt;
      std::vector<std::string_view> words;
      for (std::size_t j = i_ + 2; j < close; ++j) {
        if (!v_.ident(j)) return std::nullopt;
        words.push_back(v_.t(j));
      }
      const unsigned s = type_size(words);
      if (s == 0) return std::nullopt;
      i_ = close + 1;
      return s;
    }
    if (is_one_of(t, {"static_cast", "int", "unsigned", "size_t", "int64_t", "uint32_t"})) {
      // static_cast<T>(x) or a functional cast T(x)
      std::size_t j = i_ + 1;
      if (t == "static_cast") {
        if (!v_.is(j, "<")) return std::nullopt;
        while (j <= last_ && !v_.is(j, ">")) ++j;
        ++j;
      }
      if (!v_.is(j, "(")) return std::nullopt;
      const std::size_t close = v_.partner(j);
      if (close == npos || close > last_) return std::nullopt;
      i_ = j + 1;
      auto x = ternary();
      if (!x || i_ != close) return std::nullopt;
      i_ = close + 1;
      return x;
    }
    std::string name(t);
    ++i_;
    if (scope_) {
      const auto it = scope_->local_constants.find(name);
      if (it != scope_->local_constants.end()) return it->second;
    }
    const auto it = v_.facts.constants.find(name);
    if (it != v_.facts.constants.end()) return it->second.value;
    const auto pit = v_.facts.project_constants.find(name);
    if (pit != v_.facts.project_constants.end()) return pit->second;
    return std::nullopt;
  }

  const View& v_;
  std::size_t i_;
  std::size_t last_;
  const FunctionInfo* scope_;
};

// End of the expression starting at `first`: the code index before the first ';' or ',' at
// depth 0, or before a closing bracket of an enclosing group.
std::size_t expression_last(const View& v, std::size_t first, std::size_t limit) {
  std::size_t i = first;
  while (i <= limit && i < v.size()) {
    const std::string_view s = v.t(i);
    if (s == "(" || s == "[" || s == "{") {
      const std::size_t p = v.partner(i);
      if (p == npos) return i == first ? first : i - 1;
      i = p + 1;
      continue;
    }
    if (s == ";" || s == "," || s == ")" || s == "]" || s == "}") break;
    ++i;
  }
  return i == first ? first : i - 1;
}

// First code index of the left operand of the binary operator at `op`.
std::size_t left_operand_first(const View& v, std::size_t op, std::size_t floor) {
  const int my = binary_prec(v.t(op));
  std::size_t j = op;  // candidate start
  bool need_operand = true;
  while (j > floor) {
    const std::size_t k = j - 1;
    const std::string_view s = v.t(k);
    if (need_operand) {
      if (s == ")" || s == "]") {
        const std::size_t open = v.partner(k);
        if (open == npos || open < floor) break;
        j = open;
        // a call or subscript: the callee/array name belongs to the operand
        need_operand = false;
        if (open > floor && (v.ident(open - 1) && !is_keyword_stop(v.t(open - 1)) &&
                             !is_one_of(v.t(open - 1), {"if", "while", "for", "switch"}))) {
          j = open - 1;
        }
        continue;
      }
      if ((v.ident(k) && !is_keyword_stop(v.t(k))) || v.number(k)) {
        j = k;
        need_operand = false;
        continue;
      }
      break;
    }
    // after an operand: a member access, a unary prefix, a cast, or a binary operator
    if (s == "." || s == "->" || s == "::") {
      j = k;
      need_operand = true;
      continue;
    }
    if (s == ")") {  // a cast: (int)x
      const std::size_t open = v.partner(k);
      if (open == npos || open < floor) break;
      bool cast = true;
      for (std::size_t q = open + 1; q < k; ++q) cast = cast && (v.ident(q) || v.is(q, "::") || v.is(q, "*"));
      if (!cast) break;
      j = open;
      continue;
    }
    const int p = binary_prec(s);
    if (p > 0 && k > floor && v.ends_operand(k - 1)) {
      if (p < my) break;
      j = k;
      need_operand = true;
      continue;
    }
    if (is_one_of(s, {"!", "~", "-", "+", "*", "&"})) {  // unary prefix
      j = k;
      continue;
    }
    break;
  }
  return j;
}

// Last code index of the primary operand (with member accesses, calls, subscripts) at `first`.
std::size_t primary_last(const View& v, std::size_t first) {
  std::size_t i = first;
  if (v.is(i, "(")) {
    const std::size_t p = v.partner(i);
    return p == npos ? i : p;
  }
  if (!v.ident(i) && !v.number(i)) return npos;
  while (true) {
    if ((v.is(i + 1, ".") || v.is(i + 1, "->")) && v.ident(i + 2)) { i += 2; continue; }
    if (v.is(i + 1, "(") || v.is(i + 1, "[")) {
      const std::size_t p = v.partner(i + 1);
      if (p == npos) return i;
      i = p;
      continue;
    }
    return i;
  }
}

// ---------------------------------------------------------------------------------------------
// Dataflow

enum Taint : unsigned { kNone = 0, kThread = 1, kLane = 2, kBallot = 4 };

using Def = VarDef;

bool is_warp_const(const View& v, std::string_view name) {
  if (!is_warp_width_name(name)) return false;
  const auto it = v.facts.constants.find(std::string(name));
  if (it != v.facts.constants.end()) return it->second.value == 32 || it->second.value == 64;
  const auto pit = v.facts.project_constants.find(std::string(name));
  return pit != v.facts.project_constants.end() && (pit->second == 32 || pit->second == 64);
}

// Taint of the variable `name` at code index `at` in function `fn`: the latest definition before.
unsigned var_taint(const std::vector<Def>& defs, std::string_view name, std::size_t at) {
  unsigned t = kNone;
  for (const Def& d : defs) {
    if (d.at >= at) break;
    if (d.name == name) t = d.taint;
  }
  return t;
}

// Taint of code range [first, last] in function `fi`.
unsigned range_taint(const View& v, const std::vector<Def>& defs, std::size_t first,
                     std::size_t last) {
  unsigned t = kNone;
  bool data_index = false;
  bool warp_op = false;
  for (std::size_t i = first; i <= last && i < v.size(); ++i) {
    const std::string_view s = v.t(i);
    if (v.ident(i)) {
      if (v.member_name(i)) continue;
      const bool call = v.is(i + 1, "(");
      if (s == "threadIdx" || s == "blockDim" || s == "hipThreadIdx_x" || s == "hipBlockDim_x")
        t |= kThread;
      else if (s == "blockIdx" || s == "gridDim") data_index = true;
      else if (s == "__lane_id" || s == "__lanemask_lt" || (call && v.facts.lane_helpers.count(std::string(s))))
        t |= kThread | kLane;
      else if (call && v.facts.thread_helpers.count(std::string(s))) t |= kThread;
      else if (call && is_ballot_call_name(s)) t |= kBallot;
      else if (!call) t |= var_taint(defs, s, i);
      continue;
    }
    // a warp-width operation: & 31, % 32, >> 5, / 32, or their named-constant/warpSize forms
    if ((s == "&" && v.number(i + 1) && parse_int(v.t(i + 1)) == 31) ||
        ((s == "%" || s == "/") &&
         ((v.number(i + 1) && (parse_int(v.t(i + 1)) == 32 || parse_int(v.t(i + 1)) == 64)) ||
          v.is(i + 1, "warpSize") || (v.ident(i + 1) && is_warp_const(v, v.t(i + 1))))) ||
        (s == ">>" && v.number(i + 1) && (parse_int(v.t(i + 1)) == 5 || parse_int(v.t(i + 1)) == 6)))
      warp_op = true;
    if (s == "&" && v.is(i + 1, "(") &&
        ((v.ident(i + 2) && (is_warp_const(v, v.t(i + 2)) || v.is(i + 2, "warpSize"))) &&
         v.is(i + 3, "-") && v.is(i + 4, "1")))
      warp_op = true;
  }
  if (data_index) t &= ~static_cast<unsigned>(kThread | kLane);
  if ((t & kThread) && warp_op) t |= kLane;
  return t;
}

// Whether code token `ci` names a taint source of range_taint: its identifiers threadIdx,
// blockDim, hipThreadIdx_x, hipBlockDim_x, __lane_id, __lanemask_lt, or a ballot call name.
// Keep in step with range_taint. (Lane and thread helpers are not sources of their own: a
// function becomes one only when its return value is tainted by one of these.)
bool is_taint_source(const View& v, std::size_t ci) {
  if (!v.ident(ci)) return false;
  const std::string_view s = v.t(ci);
  return s == "threadIdx" || s == "blockDim" || s == "hipThreadIdx_x" || s == "hipBlockDim_x" ||
         s == "__lane_id" || s == "__lanemask_lt" || is_ballot_call_name(s);
}

bool has_taint_source(const View& v) {
  for (std::size_t ci = 0; ci < v.size(); ++ci)
    if (is_taint_source(v, ci)) return true;
  return false;
}

// All `name = expr` definitions in a function body (declarations and plain assignments).
std::vector<Def> function_defs(const View& v, const FunctionInfo& fn) {
  std::vector<Def> defs;
  for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
    if (!v.is(i, "=") || !v.ident(i - 1) || v.member_name(i - 1)) continue;
    const std::size_t last = expression_last(v, i + 1, fn.body_close - 1);
    Def d{v.t(i - 1), i, kNone};
    d.taint = range_taint(v, defs, i + 1, last);
    defs.push_back(std::move(d));
  }
  return defs;
}

// ---------------------------------------------------------------------------------------------
// Facts

std::vector<std::size_t> compute_partners(const FileMigration& f) {
  std::vector<std::size_t> partner(f.code_size(), npos);
  std::vector<std::size_t> code_stack, dir_stack;
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    const lex::Token& tok = f.code(ci);
    if (tok.kind != lex::Kind::Punct || tok.end - tok.begin != 1) continue;
    std::vector<std::size_t>& st = tok.in_directive ? dir_stack : code_stack;
    const char c = f.source()[tok.begin];
    if (tok.in_directive && c == '#') dir_stack.clear();
    if (c == '(' || c == '[' || c == '{') {
      st.push_back(ci);
    } else if (c == ')' || c == ']' || c == '}') {
      const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
      // tolerate stray closers: pop to the matching kind if it is on the stack
      auto it = std::find_if(st.rbegin(), st.rend(),
                             [&](std::size_t o) { return f.source()[f.code(o).begin] == want; });
      if (it == st.rend()) continue;
      const std::size_t open = *it;
      st.erase(std::next(it).base(), st.end());
      partner[open] = ci;
      partner[ci] = open;
    }
  }
  return partner;
}

void collect_constants(const View& v, FileFacts& facts) {
  struct Raw {
    ConstantInfo info;
    std::size_t value_first, value_last;
    std::size_t fn;  // function index or npos
  };
  std::vector<Raw> raws;
  for (std::size_t ci = 0; ci < v.size(); ++ci) {
    if (v.directive(ci) && v.is(ci, "#") && v.is(ci + 1, "define") && v.ident(ci + 2) &&
        v.directive(ci + 2)) {
      const std::size_t last = v.directive_last(ci);
      const std::size_t name = ci + 2;
      if (last <= name) continue;
      // function-like: '(' right after the name, without a space
      if (v.is(name + 1, "(") && v.f.code(name + 1).begin == v.f.code(name).end) continue;
      raws.push_back({{std::string(v.t(name)), 0, name, ci, last, true}, name + 1, last, npos});
      ci = last;
      continue;
    }
    if (v.directive(ci)) continue;
    if (!(v.is(ci, "constexpr") || v.is(ci, "const"))) continue;
    // [static|inline] constexpr|const <integer type words> NAME = expr ;
    std::size_t j = ci + 1;
    bool integer = false;
    while (v.ident(j) && (is_integer_type_word(v.t(j)) || is_one_of(v.t(j), {"const", "constexpr", "static"})) &&
           !v.is(j + 1, "=")) {
      integer = integer || is_integer_type_word(v.t(j));
      ++j;
      if (v.is(j, "::")) ++j;
    }
    if (!integer || !v.ident(j) || !v.is(j + 1, "=")) continue;
    const std::size_t value_last = expression_last(v, j + 2, v.size() - 1);
    if (!v.is(value_last + 1, ";")) continue;
    std::size_t first = ci;
    while (first > 0 && (v.is(first - 1, "static") || v.is(first - 1, "inline"))) --first;
    raws.push_back({{std::string(v.t(j)), 0, j, first, value_last + 1, false}, j + 2, value_last,
                    facts.function_at(ci)});
  }
  // Evaluate to a fixpoint: definitions may use each other in any order.
  std::set<std::string> conflicting;
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (Raw& r : raws) {
      FunctionInfo* scope = r.fn == npos ? nullptr : &facts.functions[r.fn];
      const auto val = Evaluator(v, r.value_first, r.value_last, scope).run();
      if (!val) continue;
      if (scope) {
        auto [it, added] = scope->local_constants.emplace(r.info.name, *val);
        if (!added && it->second != *val) {
          it->second = *val;  // last one wins inside a function (shadowing is rare)
        }
        changed = changed || added;
        continue;
      }
      if (conflicting.count(r.info.name)) continue;
      auto it = facts.constants.find(r.info.name);
      if (it == facts.constants.end()) {
        ConstantInfo c = r.info;
        c.value = *val;
        facts.constants.emplace(c.name, c);
        changed = true;
      } else if (it->second.name_ci != r.info.name_ci && it->second.value != *val) {
        conflicting.insert(r.info.name);
        facts.constants.erase(it);
        changed = true;
      }
    }
    if (!changed) break;
  }
}

void collect_functions(const View& v, FileFacts& facts) {
  for (std::size_t ci = 0; ci < v.size(); ++ci) {
    if (v.directive(ci) || !v.is(ci, "{")) continue;
    std::size_t k = ci;
    while (k > 0 && (is_one_of(v.t(k - 1), {"const", "noexcept", "override", "final", "mutable",
                                            "__restrict__", "volatile"})))
      --k;
    if (k == 0 || !v.is(k - 1, ")")) continue;
    const std::size_t open = v.partner(k - 1);
    if (open == npos || open == 0 || !v.ident(open - 1)) continue;
    const std::string_view name = v.t(open - 1);
    if (is_one_of(name, {"if", "for", "while", "switch", "catch", "__launch_bounds__", "alignas",
                         "decltype", "sizeof", "__attribute__", "return"}))
      continue;
    const std::size_t close = v.partner(ci);
    if (close == npos) continue;
    FunctionInfo fn;
    fn.name = std::string(name);
    fn.name_ci = open - 1;
    fn.body_open = ci;
    fn.body_close = close;
    // the declaration: back to the previous ';', '}', '{' or directive
    for (std::size_t d = open - 1; d > 0; --d) {
      const std::size_t p = d - 1;
      if (v.directive(p) || v.is(p, ";") || v.is(p, "}") || v.is(p, "{")) break;
      if (v.is(p, "__global__")) fn.is_kernel = true;
      if (v.is(p, "__launch_bounds__") && v.is(p + 1, "(")) {
        const auto args = v.f.call_args(p + 1);
        if (!args.empty() && !args[0].empty()) {
          fn.launch_bounds = Evaluator(v, args[0].first, args[0].last, nullptr).run();
          fn.launch_bounds_ci = p;
        }
      }
    }
    facts.functions.push_back(std::move(fn));
    ci = close;
  }
}

// ---------------------------------------------------------------------------------------------
// Diagnostics helpers

std::string prof_why(const Profile& p) {
  return "on " + p.name + " a wavefront has " + std::to_string(p.wave_size) + " lanes";
}

std::string bytes_str(long long b) {
  std::string s = std::to_string(b) + " bytes";
  if (b >= 1024 && b % 1024 == 0) s += " (" + std::to_string(b / 1024) + " KiB)";
  return s;
}

// A hazard that --fix (or the wave64 fixer) repaired is reported as a note (it is gone from the
// output); one the fixer left gets its reason as the hint.
void report(FileMigration& f, const HazardOptions& opt, Diag code, std::size_t ci, std::string msg,
            std::string hint, bool fixed = false) {
  if (f.excluded(ci)) return;
  const std::pair<Diag, std::uint32_t> key{code, f.code(ci).begin};
  if (opt.fixed_sites && opt.fixed_sites->count(key)) {
    if (opt.fixed_sites_applied) {
      fixed = true;
      hint = "fixed (wave64 fix): " + hint;
    } else {
      hint += "; fixable automatically with its whole component ('ferry analyze --fix -o OUT', or "
              "'ferry migrate --to hip')";
    }
  } else if (opt.harmless_sites && opt.harmless_sites->count(key)) {
    fixed = true;  // a note: nothing to do
    msg += " (no warp operation reaches this value in the project: here it is plain arithmetic, "
           "right on any wavefront)";
    hint = "nothing to change for correctness; " + hint + " if the code should use whole wavefronts";
  } else if (opt.unfixed_reasons) {
    const auto it = opt.unfixed_reasons->find(key);
    if (it != opt.unfixed_reasons->end()) hint += "; not fixed automatically: " + it->second;
  }
  f.diag(code, fixed ? Severity::Note : Severity::Warning, ci, std::move(msg),
         std::move(hint));
}

}  // namespace

// =============================================================================================

std::size_t FileFacts::function_at(std::size_t ci) const {
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (ci > functions[i].body_open && ci < functions[i].body_close) return i;
  return npos;
}

FileFacts collect_facts(const FileMigration& file,
                        const std::map<std::string, long long>* project_constants) {
  FileFacts facts;
  if (project_constants) facts.project_constants = *project_constants;
  facts.partner = compute_partners(file);
  const View v{file, facts};
  collect_functions(v, facts);
  collect_constants(v, facts);
  // Without a taint source in the file the dataflow below is skipped, and its results are
  // exactly what it would compute: with no helper yet, range_taint of any range can only be 0
  // (var_taint reads definitions whose taint is 0, and the data-index / warp-op adjustments
  // only clear bits or add kLane to a range already tainted kThread), so every definition's
  // taint is 0, no function becomes a helper and the first round settles. The variable sets
  // and helper sets stay empty. FunctionInfo::defs is read only by range_taint (through
  // var_taint), where a list of taint-0 definitions and an empty list both give 0; it is left
  // empty.
  if (!has_taint_source(v)) return facts;
  // Lane/thread helpers and the per-function variable sets, to a fixpoint across functions.
  bool settled = false;
  for (int round = 0; round < 3 && !settled; ++round) {
    bool changed = false;
    for (FunctionInfo& fn : facts.functions) {
      fn.defs = function_defs(v, fn);
      const std::vector<Def>& defs = fn.defs;
      for (const Def& d : defs) {
        if (d.taint & kThread) fn.thread_vars.insert(std::string(d.name));
        if (d.taint & kLane) fn.lane_vars.insert(std::string(d.name));
        if (d.taint & kBallot) fn.ballot_vars.insert(std::string(d.name));
      }
      for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
        if (!v.is(i, "return")) continue;
        const std::size_t last = expression_last(v, i + 1, fn.body_close - 1);
        const unsigned t = range_taint(v, defs, i + 1, last);
        if ((t & kLane) && facts.lane_helpers.insert(fn.name).second) changed = true;
        if ((t & kThread) && facts.thread_helpers.insert(fn.name).second) changed = true;
      }
    }
    settled = !changed;
  }
  // A round that added no helper computed every function's definitions with the final helpers,
  // which is what the checks read; when the round limit cut the fixpoint short, recompute them.
  if (!settled)
    for (FunctionInfo& fn : facts.functions) fn.defs = function_defs(v, fn);
  return facts;
}

void merge_project_constants(const FileFacts& facts, std::map<std::string, long long>& merged,
                             std::set<std::string>& conflicting) {
  for (const auto& [name, c] : facts.constants) {
    if (conflicting.count(name)) continue;
    const auto [it, added] = merged.emplace(name, c.value);
    if (!added && it->second != c.value) {
      merged.erase(it);
      conflicting.insert(name);
    }
  }
}

std::optional<long long> eval_constant(const FileMigration& file, const FileFacts& facts,
                                       std::size_t first, std::size_t last,
                                       const FunctionInfo* scope) {
  const View v{file, facts};
  return Evaluator(v, first, last, scope).run();
}

bool wave64_checks_apply(const Profile& profile) { return profile.wave_size > 32; }

bool is_hazard_code(Diag code) {
  const auto id = static_cast<unsigned>(code);
  return (id >= 2200 && id < 2300) || (id >= 3200 && id < 3300);
}

const std::vector<DiagInfo>& hazard_codes() {
  static const std::vector<DiagInfo> kCodes = [] {
    std::vector<DiagInfo> v;
    for (const DiagInfo& d : diagnostic_table())
      if (is_hazard_code(d.code)) v.push_back(d);
    return v;
  }();
  return kCodes;
}

// ----- FRY2201 FRY2202 FRY2203 ---------------------------------------------------------------

void check_lane_arithmetic(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
      const std::string_view s = v.t(i);
      if (!(v.is(i, "&") || v.is(i, "%") || v.is(i, "/") || v.is(i, ">>") || v.is(i, "<<")) ||
          !v.ends_operand(i - 1))
        continue;
      if (s == "<<") {
        // FRY2203: 1 << lane with a 32-bit literal 1
        if (!v.number(i - 1) || parse_int(v.t(i - 1)) != 1 || !is_32bit_literal(v.t(i - 1)))
          continue;
        if (is_one_of(v.t(i - 2), {".", "*", "/", "%", "->"})) continue;
        const std::size_t rl = primary_last(v, i + 1);
        if (rl == npos) continue;
        const unsigned t = range_taint(v, facts.functions[fi].defs, i + 1, rl);
        if (!(t & (kThread | kLane))) continue;
        report(file, opt, Diag::LaneBit32, i - 1,
               "'" + std::string(v.t(i - 1)) + " << " + std::string(file.span_text(i + 1, rl)) +
                   "' builds a lane bit in a 32-bit integer; " + prof_why(p) +
                   ", and shifting by 32..63 is undefined",
               "use a 64-bit mask: 1ull << " + std::string(file.span_text(i + 1, rl)) +
                   " (and uint64_t / unsigned long long for every mask that holds it)");
        continue;
      }
      const std::size_t r = i + 1;
      if (!v.number(r)) continue;
      const auto val = parse_int(v.t(r));
      const bool lane_op = (s == "&" && val == 31) || (s == "%" && val == 32);
      const bool warp_op = (s == ">>" && val == 5) || (s == "/" && val == 32);
      if (!lane_op && !warp_op) continue;
      // the literal must be the whole right operand
      const std::string_view after = v.t(r + 1);
      if (is_one_of(after, {"(", "[", ".", "->"})) continue;
      if (s == "&" && binary_prec(after) > binary_prec("&")) continue;
      if (s == ">>" && binary_prec(after) > binary_prec(">>")) continue;
      const std::size_t lf = left_operand_first(v, i, fn.body_open + 1);
      if (lf >= i) continue;
      const unsigned t = range_taint(v, facts.functions[fi].defs, lf, i - 1);
      if (!(t & kThread)) continue;
      const std::string lhs(file.span_text(lf, i - 1));
      const std::string expr = lhs + " " + std::string(s) + " " + std::string(v.t(r));
      const bool count = lhs.find("blockDim") != std::string::npos;
      if (lane_op) {
        report(file, opt, Diag::LaneId32, i,
               "'" + expr + "' computes a lane id for 32-lane warps; " + prof_why(p) +
                   ", so lanes 32.." + std::to_string(p.wave_size - 1) + " get the ids of lanes 0..31",
               "use " + lhs + " % warpSize (or " + lhs + " & (warpSize - 1); __lane_id() in HIP)");
      } else {
        report(file, opt, Diag::WarpIndex32, i,
               "'" + expr + "' computes a " + (count ? "warp count" : "warp index") +
                   " for 32-lane warps; " + prof_why(p) + ", so it is twice what the wavefront " +
                   (count ? "count" : "index") + " is",
               "use " + lhs + " / warpSize");
      }
    }
  }
}

// ----- FRY2204 -------------------------------------------------------------------------------

namespace {

// Is the use of warp-width constant NAME at `ci` one that means "the width of a warp"?
// Allowed: a divisor or modulus (x / N, x % N, /=, %=), a multiplier (w * N, N * w), a lane
// stride (+= N, -= N), a lane bound (lane < N), half a warp (N / 2), a lane mask or round-up
// (& (N - 1), x + N - 1), the divisor of a ceil-div helper (CEIL_DIV(x, N)), the width argument
// of a shuffle, and the extent of an array (one slot per lane).
bool is_warp_width_use(const View& v, std::size_t ci) {
  if (v.directive(ci)) return false;  // #if N == 32: a preprocessor decision, not a width
  std::size_t q = ci;  // skip a qualification: ns::N
  while (q >= 2 && v.is(q - 1, "::") && v.ident(q - 2)) q -= 2;
  if (q >= 1 && v.is(q - 1, "::")) --q;
  const std::string_view prev = q > 0 ? v.t(q - 1) : std::string_view();
  const std::string_view next = v.t(ci + 1);
  if (is_one_of(prev, {"/", "%", "/=", "%=", "+=", "-=", "*", "<", "<=", ">", ">="})) return true;
  if (is_one_of(next, {"/", "*"}) && !is_one_of(prev, {"<<", ">>"})) return true;
  if (next == "-" && v.is(ci + 2, "1") && is_one_of(prev, {"(", "+"})) return true;
  if (prev == "[" && next == "]") return true;
  // The default of a template parameter, `template <int kWarpSize = WARP_SIZE>`: the parameter is
  // the width (its own uses are checked where the template uses it).
  if (prev == "=" && (next == ">" || next == ",")) {
    int angle = 0;
    for (std::size_t k = q - 1; k > 0; --k) {
      if (v.is(k - 1, ">")) ++angle;
      else if (v.is(k - 1, "<")) {
        if (angle == 0) return k >= 2 && v.is(k - 2, "template");
        --angle;
      } else if (v.is(k - 1, ";") || v.is(k - 1, "{") || v.is(k - 1, "}") || v.is(k - 1, "(")) {
        return false;
      }
    }
    return false;
  }
  if (prev == "," && (next == ")" || next == ",")) {
    // the argument of a call: which call, which position?
    std::size_t open = ci;
    int depth = 0;
    while (open > 0) {
      --open;
      if (v.is(open, ")") || v.is(open, "]")) ++depth;
      else if (v.is(open, "(") || v.is(open, "[")) {
        if (depth == 0) break;
        --depth;
      }
    }
    if (!v.is(open, "(") || open == 0 || !v.ident(open - 1)) return false;
    const std::string callee = lower(v.t(open - 1));
    if (callee.find("div") != std::string::npos) return true;  // CEIL_DIV(x, N), div_up(x, N)
    if (callee.rfind("__shfl", 0) == 0) return true;            // the width argument
  }
  return false;
}

}  // namespace

std::vector<std::string> warp_constant_names(const FileMigration& file, const FileFacts& facts) {
  (void)file;
  std::vector<std::string> out;
  for (const auto& [name, c] : facts.constants)
    if (c.value == 32 && is_warp_width_name(name)) out.push_back(name);
  return out;
}

void record_warp_constant_uses(const FileMigration& file, const FileFacts& facts,
                               WarpConstantUses& uses) {
  const View v{file, facts};
  for (std::size_t ci = 0; ci < v.size(); ++ci) {
    if (!v.ident(ci) || !is_warp_width_name(v.t(ci))) continue;
    const std::string name(v.t(ci));
    // the definition itself
    if (v.directive(ci) && ci >= 2 && v.is(ci - 1, "define")) continue;
    if (v.is(ci + 1, "=") && !v.is(ci + 2, "=")) continue;
    if (v.directive(ci) && ci >= 1 && is_one_of(v.t(ci - 1), {"ifdef", "ifndef", "undef"})) continue;
    if (v.directive(ci) && ci >= 2 && v.is(ci - 1, "(") && v.is(ci - 2, "defined")) continue;
    if (is_warp_width_use(v, ci)) continue;
    const std::string where = std::string(file.path()) + ":" + std::to_string(file.code(ci).line);
    if (uses.other_use.insert(name).second) uses.other_use_where[name] = where;
    uses.other_use_in[name].emplace(std::string(file.path()), where);
  }
}

void check_warp_constants(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const Profile& p = *opt.profile;
  const std::vector<std::string> names = warp_constant_names(file, facts);
  if (names.empty()) return;  // the uses only matter for the file's own warp-width constants
  WarpConstantUses local;
  const WarpConstantUses* uses = opt.warp_uses;
  if (!uses) {
    record_warp_constant_uses(file, facts, local);
    uses = &local;
  }
  for (const std::string& name : names) {
    const ConstantInfo& c = facts.constants.at(name);
    const bool safe = !uses->other_use.count(name);
    std::string hint;
    bool fixed = false;
    const std::string amd = "#if defined(__HIP_PLATFORM_AMD__)";
    if (opt.apply_fixes && safe) {
      const lex::Token& first = file.code(c.first_ci);
      // indentation of the definition's line, for the lines we add
      std::uint32_t bol = first.begin;
      while (bol > 0 && file.source()[bol - 1] != '\n') --bol;
      const std::string indent(file.source().substr(bol, first.begin - bol));
      bool only_space = indent.find_first_not_of(" \t") == std::string::npos;
      std::string text;
      if (c.is_macro) {
        const std::string value(file.span_text(c.name_ci + 1, c.last_ci));
        text = amd + "\n" + indent + "#define " + name + " " + std::to_string(p.wave_size) +
               "  // ferry: wavefront width of " + p.name + "\n" + indent + "#else\n" + indent +
               "#define " + name + " " + value + "\n" + indent + "#endif";
      } else if (only_space) {
        const std::string decl(file.span_text(c.first_ci, c.last_ci));
        const std::string head(file.span_text(c.first_ci, c.name_ci + 1));  // "... NAME ="
        text = amd + "\n" + indent + head + " " + std::to_string(p.wave_size) +
               ";  // ferry: wavefront width of " + p.name + "\n" + indent + "#else\n" + indent +
               decl + "\n" + indent + "#endif";
      }
      if (!text.empty() && only_space)
        fixed = file.replace(c.first_ci, c.last_ci, std::move(text));
    }
    if (fixed) {
      hint = "fixed (--fix): the value is now " + std::to_string(p.wave_size) +
             " under __HIP_PLATFORM_AMD__ and stays 32 elsewhere; every use is a warp width";
    } else if (safe) {
      hint = "make it per target: #if defined(__HIP_PLATFORM_AMD__) / #define " + name + " " +
             std::to_string(p.wave_size) +
             " / #else ... 32 / #endif (in device-only code, warpSize); every use is a warp "
             "width, so 'ferry analyze --fix' can do it";
    } else {
      const auto w = uses->other_use_where.find(name);
      hint = "make it per target (" + std::to_string(p.wave_size) +
             " under __HIP_PLATFORM_AMD__, or warpSize in device code); not fixed automatically: '" +
             name + "' is also used as something other than a warp width" +
             (w != uses->other_use_where.end() ? " at " + w->second : std::string());
    }
    report(file, opt, Diag::WarpWidthConstant, c.name_ci,
           "'" + name + "' fixes the warp width at 32; " + prof_why(p) +
               ", so lane ids, warp indices and reductions derived from it are wrong",
           hint, fixed);
  }
}

// ----- FRY2205 -------------------------------------------------------------------------------

void check_shuffle_loops(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  for (std::size_t ci = 0; ci + 1 < v.size(); ++ci) {
    if (!v.is(ci, "for") || !v.is(ci + 1, "(") || facts.function_at(ci) == npos) continue;
    const std::size_t close = v.partner(ci + 1);
    if (close == npos) continue;
    // split the header at top-level ';'
    std::vector<std::size_t> semis;
    for (std::size_t i = ci + 2; i < close; ++i) {
      if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
        i = v.partner(i) == npos ? i : v.partner(i);
        continue;
      }
      if (v.is(i, ";")) semis.push_back(i);
    }
    if (semis.size() != 2) continue;
    // init: [type] var = <literal>
    std::size_t eq = npos;
    for (std::size_t i = ci + 2; i < semis[0]; ++i)
      if (v.is(i, "=")) { eq = i; break; }
    if (eq == npos || !v.ident(eq - 1) || eq + 2 != semis[0] || !v.number(eq + 1)) continue;
    const std::string var(v.t(eq - 1));
    const auto start = parse_int(v.t(eq + 1));
    // step
    const std::string step(file.span_text(semis[1] + 1, close - 1));
    auto squeeze = [](std::string s) {
      s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
      return s;
    };
    const std::string st = squeeze(step);
    const bool halving = st == var + ">>=1" || st == var + "/=2" || st == var + "=" + var + ">>1" ||
                         st == var + "=" + var + "/2";
    const bool doubling = st == var + "<<=1" || st == var + "*=2" || st == var + "=" + var + "<<1" ||
                          st == var + "=" + var + "*2";
    const std::string cond = squeeze(std::string(file.span_text(semis[0] + 1, semis[1] - 1)));
    std::size_t hit = npos;
    if (halving && start == 16) hit = eq + 1;
    if (doubling && start == 1 && (cond == var + "<32" || cond == var + "<=16")) {
      for (std::size_t i = semis[0] + 1; i < semis[1]; ++i)
        if (v.number(i)) hit = i;
    }
    if (hit == npos) continue;
    // body
    std::size_t body_first = close + 1, body_last;
    if (v.is(body_first, "{")) {
      body_last = v.partner(body_first);
      if (body_last == npos) continue;
    } else {
      body_last = body_first;
      while (body_last < v.size() && !v.is(body_last, ";")) {
        if (v.partner(body_last) != npos && (v.is(body_last, "(") || v.is(body_last, "{") || v.is(body_last, "[")))
          body_last = v.partner(body_last);
        ++body_last;
      }
    }
    bool shuffles = false, safe = halving;
    for (std::size_t i = body_first; i <= body_last && i < v.size(); ++i) {
      if (v.ident(i) && v.t(i).rfind("__shfl", 0) == 0 && v.is(i + 1, "(")) {
        shuffles = true;
        const std::string_view fname = v.t(i);
        const bool sync = fname.size() > 5 && fname.substr(fname.size() - 5) == "_sync";
        const bool kind_ok = is_one_of(fname, {"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"});
        const auto args = file.call_args(i + 1);
        const std::size_t want = sync ? 3 : 2;
        if (!kind_ok || args.size() != want) { safe = false; continue; }
        if (sync) {
          const auto m = Evaluator(v, args[0].first, args[0].last, nullptr).run();
          if (!m || (*m != 0xffffffffLL && *m != -1)) safe = false;
        }
        // the loop variable is the lane offset, alone
        const ArgRange& off = args[want - 1];
        if (off.first != off.last || v.t(off.first) != var) safe = false;
        for (std::size_t a = 0; a + 1 < want; ++a)
          for (std::size_t j = args[a].first; j <= args[a].last; ++j)
            if (v.t(j) == var) safe = false;
        continue;
      }
      if (v.ident(i) && v.t(i) == var && !v.member_name(i)) {
        // any use outside a shuffle's offset argument
        bool in_shuffle_offset = v.is(i + 1, ")") && i > 0 && v.is(i - 1, ",");
        if (!in_shuffle_offset) safe = false;
      }
    }
    if (!shuffles) continue;
    bool fixed = false;
    if (opt.apply_fixes && safe && !file.excluded(hit)) fixed = file.replace(hit, hit, "warpSize / 2");
    report(file, opt, Diag::ShuffleLoop32, hit,
           "shuffle reduction over 32 lanes ('" + std::string(file.span_text(ci + 2, close - 1)) +
               "'); " + prof_why(p) + ", so lanes 32.." + std::to_string(p.wave_size - 1) +
               " are never combined with lanes 0..31",
           fixed ? "fixed (--fix): the loop starts at warpSize / 2 (16 on NVIDIA, 32 on wave64)"
           : halving
               ? "start the loop at warpSize / 2" +
                     std::string(safe ? " ('ferry analyze --fix' can do it)"
                                      : " and check the shuffle masks and widths: not fixed "
                                        "automatically because a shuffle in the loop has a "
                                        "partial mask, a width, or uses the offset otherwise")
               : "bound the loop by warpSize (" + var + " < warpSize)",
           fixed);
  }
}

// Unrolled butterflies: `v += __shfl_xor_sync(m, v, 16);` as the first of its steps.
void check_unrolled_shuffles(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  for (std::size_t ci = 0; ci + 1 < v.size(); ++ci) {
    if (!v.ident(ci) || !v.is(ci + 1, "(") || facts.function_at(ci) == npos) continue;
    const std::string_view name = v.t(ci);
    if (!is_one_of(name, {"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"})) continue;
    const auto args = file.call_args(ci + 1);
    const std::size_t off = name.ends_with("_sync") ? 2 : 1;
    if (args.size() != off + 1 || args[off].first != args[off].last || !v.number(args[off].first) ||
        parse_int(v.t(args[off].first)) != 16)
      continue;
    report(file, opt, Diag::ShuffleLoop32, args[off].first,
           "shuffle step at offset 16 ('" + std::string(file.span_text(ci, v.partner(ci + 1))) +
               "'): an unrolled reduction over 32 lanes; " + prof_why(p) + ", so lanes 32.." +
               std::to_string(p.wave_size - 1) + " are never combined with lanes 0..31",
           "start the butterfly at warpSize / 2: a loop for (int o = warpSize / 2; o > 0; o /= 2), or a "
           "step at offset 32 before this one on wave64");
  }
}

// ----- FRY2206 -------------------------------------------------------------------------------

void check_full_masks(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  for (std::size_t ci = 0; ci + 1 < v.size(); ++ci) {
    if (!v.ident(ci) || !v.is(ci + 1, "(") || v.directive(ci)) continue;
    const std::string_view name = v.t(ci);
    if (std::find(kWarpSyncFunctions.begin(), kWarpSyncFunctions.end(), name) == kWarpSyncFunctions.end())
      continue;
    const auto args = file.call_args(ci + 1);
    if (args.empty() || args[0].empty()) continue;
    const FunctionInfo* scope = nullptr;
    const std::size_t fi = facts.function_at(ci);
    if (fi != npos) scope = &facts.functions[fi];
    const auto m = Evaluator(v, args[0].first, args[0].last, scope).run();
    if (!m || (*m != 0xffffffffLL && *m != -1)) continue;
    const std::string text(file.span_text(args[0].first, args[0].last));
    report(file, opt, Diag::FullMask32, args[0].first,
           "32-bit full mask '" + text + "' passed to " + std::string(name) + "; " + prof_why(p) +
               ": the mask names lanes 0..31 only, and a full-wavefront mask is 64 bits wide",
           "pass a mask of every lane of the wavefront: __activemask(), or 0xffffffffffffffffull "
           "(~0ull) under __HIP_PLATFORM_AMD__");
  }
}

// ----- FRY2207 FRY2208 -----------------------------------------------------------------------

void check_ballot_width(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
      if (!v.ident(i) || !v.is(i + 1, "(")) continue;
      const std::string_view name = v.t(i);
      if (is_ballot_call_name(name)) {
        // FRY2207: T var = __ballot...(...) with a 32-bit T
        std::size_t k = i;
        if (k < 2 || !v.is(k - 1, "=") || !v.ident(k - 2)) continue;
        const std::size_t var = k - 2;
        std::vector<std::string_view> words;
        std::size_t w = var;
        while (w > fn.body_open + 1 && (v.ident(w - 1) || v.is(w - 1, "::"))) {
          --w;
          if (v.ident(w)) words.push_back(v.t(w));
        }
        if (words.empty()) continue;
        std::reverse(words.begin(), words.end());
        std::vector<std::string_view> type;
        for (std::string_view s : words)
          if (!is_one_of(s, {"const", "volatile", "register", "static", "std"})) type.push_back(s);
        if (type.empty() || type[0] == "auto") continue;
        const bool unsigned_int = type.size() == 2 && type[0] == "unsigned" && type[1] == "int";
        const bool b32 = unsigned_int || (type.size() == 1 && is_one_of(type[0], {"unsigned", "int", "uint32_t", "uint", "int32_t"}));
        if (!b32) continue;
        std::string tname;
        for (std::string_view s : type) tname += (tname.empty() ? "" : " ") + std::string(s);
        report(file, opt, Diag::BallotResult32, var,
               "the result of " + std::string(name) + " is stored in 32-bit '" + tname + " " +
                   std::string(v.t(var)) + "'; " + prof_why(p) +
                   " and the ballot is 64 bits wide, so lanes 32.." + std::to_string(p.wave_size - 1) +
                   " are dropped",
               "declare it unsigned long long (uint64_t) and count it with __popcll");
        continue;
      }
      std::string wide;
      if (name == "__popc") wide = "__popcll";
      else if (name == "__ffs") wide = "__ffsll";
      else if (name == "__clz") wide = "__clzll";
      else if (name == "__brev") wide = "__brevll";
      else continue;
      const std::size_t close = v.partner(i + 1);
      if (close == npos) continue;
      const unsigned t = range_taint(v, facts.functions[fi].defs, i + 2, close - 1);
      if (!(t & kBallot)) continue;
      report(file, opt, Diag::BallotPopc32, i,
             std::string(name) + "(" + std::string(file.span_text(i + 2, close - 1)) +
                 ") reads a ballot mask with a 32-bit bit operation; " + prof_why(p) +
                 ", so lanes 32.." + std::to_string(p.wave_size - 1) + " are not counted",
             "use " + wide + " on a 64-bit (unsigned long long) mask");
    }
  }
}

// ----- shared array declarations (FRY2209, FRY3201) -------------------------------------------

namespace {

struct SharedArray {
  std::string name;
  std::size_t name_ci;
  std::size_t decl_ci;  // the __shared__ token
  unsigned elem_size;   // 0 if unknown
  std::vector<std::pair<std::size_t, std::size_t>> extents;  // code ranges
  std::optional<long long> elements;  // product of the extents, when constant
  bool per_warp_32 = false;  // an extent is 32 or divides by 32 (a literal)
};

std::vector<SharedArray> shared_arrays(const View& v, std::size_t first, std::size_t last,
                                       const FunctionInfo* scope) {
  std::vector<SharedArray> out;
  for (std::size_t i = first; i <= last && i < v.size(); ++i) {
    if (!v.is(i, "__shared__") || v.directive(i)) continue;
    if (i > 0 && v.is(i - 1, "extern")) continue;
    std::size_t j = i + 1;
    std::vector<std::string_view> words;
    while (v.ident(j) || v.is(j, "::")) {
      if (v.ident(j)) {
        if (is_one_of(v.t(j), {"__align__", "alignas"}) && v.is(j + 1, "(")) {
          j = v.partner(j + 1) + 1;
          continue;
        }
        if (v.t(j) == "extern") break;
        words.push_back(v.t(j));
      }
      ++j;
    }
    if (words.size() < 2) continue;
    // words = type words + the first declarator's name; more declarators after commas
    std::size_t name_ci = j - 1;
    words.pop_back();
    const unsigned esize = type_size(words);
    while (true) {
      SharedArray a{std::string(v.t(name_ci)), name_ci, i, esize, {}, 1, false};
      std::size_t k = name_ci + 1;
      while (v.is(k, "[")) {
        const std::size_t close = v.partner(k);
        if (close == npos) break;
        a.extents.push_back({k + 1, close - 1});
        for (std::size_t q = k + 1; q < close; ++q)
          if (v.number(q) && parse_int(v.t(q)) == 32) a.per_warp_32 = true;
        const auto e = Evaluator(v, k + 1, close - 1, scope).run();
        if (e && a.elements) a.elements = *a.elements * *e;
        else a.elements = std::nullopt;
        k = close + 1;
      }
      out.push_back(a);
      // skip an initializer, then another declarator?
      while (k < v.size() && !v.is(k, ",") && !v.is(k, ";")) {
        if (v.partner(k) != npos && (v.is(k, "(") || v.is(k, "{"))) k = v.partner(k);
        ++k;
      }
      if (v.is(k, ",") && v.ident(k + 1)) {
        name_ci = k + 1;
        continue;
      }
      break;
    }
  }
  return out;
}

}  // namespace

void check_per_warp_shared(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (const SharedArray& a : shared_arrays(v, fn.body_open + 1, fn.body_close - 1, &fn)) {
      if (!a.per_warp_32) continue;
      // subscripted by a lane id or warp index?
      std::size_t use = npos;
      for (std::size_t i = fn.body_open + 1; i < fn.body_close && use == npos; ++i) {
        if (i == a.name_ci || !v.ident(i) || v.t(i) != a.name || !v.is(i + 1, "[")) continue;
        const std::size_t close = v.partner(i + 1);
        if (close == npos) continue;
        if (range_taint(v, facts.functions[fi].defs, i + 2, close - 1) & kLane) use = i;
      }
      if (use == npos) continue;
      report(file, opt, Diag::PerWarpShared32, a.name_ci,
             "__shared__ '" + a.name + "' is sized for 32-lane warps and indexed by a lane id or "
                 "warp index (line " + std::to_string(file.code(use).line) + "); " + prof_why(p) +
                 ": one slot per 32-lane warp no longer matches the wavefronts, and a lane id "
                 "(0.." + std::to_string(p.wave_size - 1) + ") overruns 32 slots",
             "size it from the wavefront width (e.g. [1024 / WAVE] with WAVE = " +
                 std::to_string(p.wave_size) + " on " + p.name +
                 ", a per-target constant) and index it with threadIdx.x / warpSize or "
                 "threadIdx.x % warpSize");
    }
  }
}

// ----- FRY3201 -------------------------------------------------------------------------------

void check_static_lds(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  for (const FunctionInfo& fn : facts.functions) {
    if (!fn.is_kernel) continue;
    long long total = 0;
    const SharedArray* largest = nullptr;
    long long largest_bytes = 0;
    const auto arrays = shared_arrays(v, fn.body_open + 1, fn.body_close - 1, &fn);
    for (const SharedArray& a : arrays) {
      if (a.elem_size == 0 || !a.elements) continue;  // unknown: a template type or size
      const long long b = *a.elements * a.elem_size;
      total += b;
      if (b > largest_bytes) largest_bytes = b, largest = &a;
    }
    if (total <= p.lds_static_bytes || !largest) continue;
    const long long over = total - p.lds_static_bytes;
    const long long keep = std::max(0LL, (largest_bytes - over) / largest->elem_size);
    report(file, opt, Diag::StaticLdsLimit, fn.name_ci,
           "kernel '" + fn.name + "' declares " + bytes_str(total) + " of static __shared__ memory; " +
               p.name + " gives a block at most " + bytes_str(p.lds_static_bytes) +
               ", so the kernel does not compile (or launch) for it",
           "cut " + bytes_str(over) + ": e.g. shrink '" + largest->name + "' from " +
               std::to_string(*largest->elements) + " to at most " + std::to_string(keep) +
               " elements (a smaller tile, more blocks), or move the rest to global memory");
  }
}

// ----- FRY3202 FRY3203 -----------------------------------------------------------------------

namespace {

// The launch arguments between <<< and >>> at `open`.
std::vector<ArgRange> launch_args(const View& v, std::size_t open) {
  std::vector<ArgRange> args;
  std::size_t start = open + 1;
  for (std::size_t i = open + 1; i < v.size(); ++i) {
    const lex::Kind k = v.f.code(i).kind;
    if (k == lex::Kind::LaunchClose) {
      args.push_back({start, i - 1});
      return args;
    }
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
      if (v.partner(i) == npos) return {};
      i = v.partner(i);
      continue;
    }
    if (v.is(i, ",")) {
      args.push_back({start, i - 1});
      start = i + 1;
    }
    if (v.is(i, ";")) return {};
  }
  return {};
}

// Dimensions of a dim3 written as `dim3(a, b, c)`, `dim3{a, b}` or `{a, b}` at `first`.
std::optional<std::vector<long long>> dim3_dims(const View& v, std::size_t open,
                                                const FunctionInfo* scope) {
  if (!(v.is(open, "(") || v.is(open, "{"))) return std::nullopt;
  const std::size_t close = v.partner(open);
  if (close == npos) return std::nullopt;
  std::vector<long long> dims;
  std::size_t start = open + 1;
  for (std::size_t i = open + 1; i <= close; ++i) {
    if (i < close && (v.is(i, "(") || v.is(i, "["))) {
      i = v.partner(i);
      continue;
    }
    if (i == close || v.is(i, ",")) {
      const auto d = Evaluator(v, start, i - 1, scope).run();
      if (!d) return std::nullopt;
      dims.push_back(*d);
      start = i + 1;
    }
  }
  return dims;
}

std::string dims_str(const std::vector<long long>& d) {
  std::string s;
  for (long long x : d) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// Halves the largest dimension until the product fits.
std::vector<long long> shrink_dims(std::vector<long long> d, long long limit) {
  auto product = [&] {
    long long p = 1;
    for (long long x : d) p *= x;
    return p;
  };
  while (product() > limit) {
    auto it = std::max_element(d.begin(), d.end());
    if (*it <= 1) break;
    *it = (*it + 1) / 2;
  }
  return d;
}

}  // namespace

void check_block_size(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  const long long max = p.max_threads_per_block;
  for (const FunctionInfo& fn : facts.functions) {
    if (fn.launch_bounds && *fn.launch_bounds > max)
      report(file, opt, Diag::LaunchBoundsLimit, fn.launch_bounds_ci,
             "__launch_bounds__(" + std::to_string(*fn.launch_bounds) + ") on '" + fn.name +
                 "' exceeds the " + std::to_string(max) + " threads per block of " + p.name,
             "use __launch_bounds__(" + std::to_string(max) + ") and launch at most " +
                 std::to_string(max) + " threads per block (more blocks instead)");
  }
  for (std::size_t ci = 0; ci < v.size(); ++ci) {
    if (v.f.code(ci).kind != lex::Kind::LaunchOpen) continue;
    const auto args = launch_args(v, ci);
    if (args.size() < 2 || args[1].empty()) continue;
    const std::size_t fi = facts.function_at(ci);
    const FunctionInfo* scope = fi == npos ? nullptr : &facts.functions[fi];
    const ArgRange b = args[1];
    std::optional<std::vector<long long>> dims;
    std::size_t where = b.first;
    if (v.is(b.first, "dim3") && v.partner(b.first + 1) == b.last) {
      dims = dim3_dims(v, b.first + 1, scope);
    } else if (v.is(b.first, "{") && v.partner(b.first) == b.last) {
      dims = dim3_dims(v, b.first, scope);
    } else if (b.first == b.last && v.ident(b.first) && scope) {
      // a dim3 variable of this function: dim3 name(a, b) / dim3 name{a, b} / dim3 name = dim3(...)
      for (std::size_t i = scope->body_open + 1; i < ci; ++i) {
        if (!v.is(i, "dim3") || v.t(i + 1) != v.t(b.first)) continue;
        std::size_t open = i + 2;
        if (v.is(open, "=") && v.is(open + 1, "dim3")) open += 2;
        dims = dim3_dims(v, open, scope);
        where = i + 1;
      }
      if (!dims) {
        const auto n = Evaluator(v, b.first, b.last, scope).run();
        if (n) dims = std::vector<long long>{*n};
      }
    } else {
      const auto n = Evaluator(v, b.first, b.last, scope).run();
      if (n) dims = std::vector<long long>{*n};
    }
    if (!dims || dims->empty()) continue;
    long long threads = 1;
    for (long long d : *dims) threads *= d;
    if (threads <= max) continue;
    const auto smaller = shrink_dims(*dims, max);
    long long sm = 1;
    for (long long d : smaller) sm *= d;
    const long long factor = (threads + sm - 1) / sm;
    const std::string kernel = ci > 0 ? std::string(v.t(ci - 1)) : std::string("kernel");
    report(file, opt, Diag::BlockSizeLimit, where,
           "launch of '" + kernel + "' with " + std::to_string(threads) + " threads per block (" +
               dims_str(*dims) + "); " + p.name + " allows at most " + std::to_string(max),
           "launch " + (smaller.size() == 1 ? std::to_string(sm) : "dim3(" + dims_str(smaller) + ")") +
               " threads per block and " + std::to_string(factor) +
               "x as many blocks (index with blockIdx so each block does 1/" +
               std::to_string(factor) + " of the work)");
  }
}

// ----- FRY3204 -------------------------------------------------------------------------------

void check_dynamic_lds(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const View v{file, facts};
  const Profile& p = *opt.profile;
  auto flag = [&](std::size_t at, long long bytes, const std::string& what) {
    const long long floats = p.lds_max_bytes / 4;
    report(file, opt, Diag::DynamicLdsLimit, at,
           what + " asks for " + bytes_str(bytes) + " of dynamic shared memory; " + p.name +
               " gives a block at most " + bytes_str(p.lds_max_bytes) +
               ", so the launch fails",
           "stage at most " + bytes_str(p.lds_max_bytes) + " (" + std::to_string(floats) +
               " floats) per block: tile the data (a loop over chunks of that size) or keep it in "
               "global memory");
  };
  auto scope_at = [&](std::size_t ci) -> const FunctionInfo* {
    const std::size_t fi = facts.function_at(ci);
    return fi == npos ? nullptr : &facts.functions[fi];
  };
  for (std::size_t ci = 0; ci < v.size(); ++ci) {
    if (v.f.code(ci).kind == lex::Kind::LaunchOpen) {
      const FunctionInfo* scope = scope_at(ci);
      const auto args = launch_args(v, ci);
      if (args.size() < 3 || args[2].empty()) continue;
      const auto n = Evaluator(v, args[2].first, args[2].last, scope).run();
      if (n && *n > p.lds_max_bytes)
        flag(args[2].first, *n, "launch of '" + std::string(ci > 0 ? v.t(ci - 1) : "") + "'");
      continue;
    }
    if (!v.ident(ci) || !v.is(ci + 1, "(")) continue;
    if (!is_one_of(v.t(ci), {"cudaFuncSetAttribute", "hipFuncSetAttribute"})) continue;
    const auto args = file.call_args(ci + 1);
    if (args.size() != 3 || args[1].empty() || args[2].empty()) continue;
    bool dyn = false;
    for (std::size_t i = args[1].first; i <= args[1].last; ++i)
      if (is_one_of(v.t(i), {"cudaFuncAttributeMaxDynamicSharedMemorySize",
                              "hipFuncAttributeMaxDynamicSharedMemorySize"}))
        dyn = true;
    if (!dyn) continue;
    const auto n = Evaluator(v, args[2].first, args[2].last, scope_at(ci)).run();
    if (n && *n > p.lds_max_bytes) flag(args[2].first, *n, std::string(v.t(ci)));
  }
}

// ----- all -----------------------------------------------------------------------------------

void check_all(FileMigration& file, const HazardOptions& opt,
               const std::map<std::string, long long>* project_constants) {
  const FileFacts facts = collect_facts(file, project_constants);
  if (wave64_checks_apply(*opt.profile)) {
    check_warp_constants(file, facts, opt);
    check_shuffle_loops(file, facts, opt);
    check_unrolled_shuffles(file, facts, opt);
    check_lane_arithmetic(file, facts, opt);
    if (opt.intrinsic_checks) {
      check_full_masks(file, facts, opt);
      check_ballot_width(file, facts, opt);
    }
    check_per_warp_shared(file, facts, opt);
  }
  check_static_lds(file, facts, opt);
  check_block_size(file, facts, opt);
  check_dynamic_lds(file, facts, opt);
}

void hazard_pass(FileMigration& file, const Wave64FilePlan* fixes) {
  static const Profile* const kDefault = find_profile("gfx906");
  if (!kDefault) return;
  HazardOptions opt;
  opt.profile = kDefault;
  if (fixes) {
    opt.fixed_sites = &fixes->fixed;
    opt.unfixed_reasons = &fixes->unfixed;
    opt.harmless_sites = &fixes->harmless;
  }
  opt.intrinsic_checks = false;  // the HIP warp-intrinsics pass rewrites and reports those calls
  check_all(file, opt);
}

// ----- helpers for the wave64 fixer ------------------------------------------------------------

unsigned expression_taint(const FileMigration& file, const FileFacts& facts, const FunctionInfo& fn,
                          std::size_t first, std::size_t last) {
  const View v{file, facts};
  return range_taint(v, fn.defs, first, last);
}

std::size_t left_operand_start(const FileMigration& file, const FileFacts& facts, std::size_t op,
                               std::size_t floor) {
  const View v{file, facts};
  return left_operand_first(v, op, floor);
}

std::size_t operand_last(const FileMigration& file, const FileFacts& facts, std::size_t first) {
  const View v{file, facts};
  return primary_last(v, first);
}

}  // namespace ferry::analysis
