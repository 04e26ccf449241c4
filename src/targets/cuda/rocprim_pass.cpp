// rocPRIM -> CUB. rocPRIM has no CUDA backend (hipCUB is the portable layer; rocPRIM is AMD's
// own), so HIP code written against rocPRIM needs CUB's spelling of the same algorithms:
//   block level   rocprim::block_load/block_store/block_reduce/block_scan<...> -> cub::BlockLoad/...
//                 (the template parameters are in the same order), ::storage_type -> ::TempStorage,
//                 the storage argument of a method moves into CUB's constructor, reduce's output
//                 argument becomes the assigned result, a missing operator becomes plus;
//   device level  rocprim::reduce / inclusive_scan / exclusive_scan / radix_sort_keys /
//                 radix_sort_pairs -> cub::DeviceReduce / DeviceScan / DeviceRadixSort (arguments
//                 reordered, rocPRIM's debug_synchronous dropped: CUB 2 removed it);
//   functors      rocprim::plus/minus/multiplies/maximum/minimum/... -> cuda::std:: / cuda::.
// What has no CUB form this pass knows (rocprim::transform, select, unique, lookback scans, warp
// level, rocPRIM's own iterators, ...) gets FRY1208 and is left unchanged.
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/tokens.h"
#include "rewrite/roundtrip_record.h"
#include "rules/rule_set.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

struct Name {
  std::string_view rocprim;
  std::string_view cub;
};
constexpr Name kFunctors[] = {
    {"plus", "cuda::std::plus"},
    {"minus", "cuda::std::minus"},
    {"multiplies", "cuda::std::multiplies"},
    {"maximum", "cuda::maximum"},
    {"minimum", "cuda::minimum"},
    {"equal_to", "cuda::std::equal_to"},
    {"not_equal_to", "cuda::std::not_equal_to"},
    {"less", "cuda::std::less"},
    {"less_equal", "cuda::std::less_equal"},
    {"greater", "cuda::std::greater"},
    {"greater_equal", "cuda::std::greater_equal"},
    {"identity", "cuda::std::identity"},
};
constexpr Name kBlockTypes[] = {
    {"block_load", "cub::BlockLoad"},
    {"block_store", "cub::BlockStore"},
    {"block_reduce", "cub::BlockReduce"},
    {"block_scan", "cub::BlockScan"},
};
// Algorithm enumerators: rocprim::<enum>::<name> -> cub::<NAME>.
constexpr Name kAlgorithms[] = {
    {"block_load_direct", "cub::BLOCK_LOAD_DIRECT"},
    {"block_load_striped", "cub::BLOCK_LOAD_STRIPED"},
    {"block_load_vectorize", "cub::BLOCK_LOAD_VECTORIZE"},
    {"block_load_transpose", "cub::BLOCK_LOAD_TRANSPOSE"},
    {"block_load_warp_transpose", "cub::BLOCK_LOAD_WARP_TRANSPOSE"},
    {"block_store_direct", "cub::BLOCK_STORE_DIRECT"},
    {"block_store_striped", "cub::BLOCK_STORE_STRIPED"},
    {"block_store_vectorize", "cub::BLOCK_STORE_VECTORIZE"},
    {"block_store_transpose", "cub::BLOCK_STORE_TRANSPOSE"},
    {"block_store_warp_transpose", "cub::BLOCK_STORE_WARP_TRANSPOSE"},
    {"using_warp_reduce", "cub::BLOCK_REDUCE_WARP_REDUCTIONS"},
    {"raking_reduce", "cub::BLOCK_REDUCE_RAKING"},
    {"raking_reduce_commutative_only", "cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY"},
    {"using_warp_scan", "cub::BLOCK_SCAN_WARP_SCANS"},
    {"reduce_then_scan", "cub::BLOCK_SCAN_RAKING"},
};
constexpr std::string_view kEnums[] = {"block_load_method", "block_store_method", "block_reduce_algorithm",
                                       "block_scan_algorithm"};

const Name* find(const auto& table, std::string_view n) {
  for (const Name& x : table)
    if (x.rocprim == n) return &x;
  return nullptr;
}

std::string functor_header(std::string_view cub) {
  return cub.starts_with("cuda::std::") ? "cuda/std/functional" : "cuda/functional";
}
// CUB's functor for a rocPRIM one, with the round-trip record of the rocPRIM name
// (`cuda::std::plus /* ferry-hip: rocprim::plus */`): CUDA -> HIP has no rule for libcu++'s
// functors, and the way back gives the rocPRIM name as written (rewrite/roundtrip_record.h, to_hip).
std::string functor_text(const Name& n) {
  return std::string(n.cub) + " " + rewrite::record::to_hip::make("rocprim::" + std::string(n.rocprim));
}

class RocprimPass {
 public:
  explicit RocprimPass(FileMigration& f) : f_(f) {}

  void run() {
    bool any = false;
    for (std::size_t ci = 0; ci + 2 < f_.code_size() && !any; ++ci) any = f_.is(ci, "rocprim") && f_.is(ci + 1, "::");
    if (!any) return;
    collect_names();
    device_calls();
    block_methods();
    names();
    // libcu++'s functor headers for the functors the output holds (a reduce operator may have
    // become DeviceReduce::Max, which needs none)
    headers_.erase("cuda/std/functional");
    headers_.erase("cuda/functional");
    for (const rewrite::Edit& e : f_.edits().edits()) {
      if (e.replacement.find("cuda::std::") != std::string::npos) headers_.insert("cuda/std/functional");
      if (e.replacement.find("cuda::maximum") != std::string::npos ||
          e.replacement.find("cuda::minimum") != std::string::npos)
        headers_.insert("cuda/functional");
    }
    for (const std::string& h : headers_) include_once(h);
  }

 private:
  FileMigration& f_;
  std::set<std::string> aliases_;               // using X = rocprim::block_reduce<...>
  std::set<std::string> storage_;               // variables of a storage_type
  std::map<std::string, std::string> op_vars_;  // auto op = rocprim::plus<int>{} -> "cuda::std::plus"; a lambda -> ""
  std::set<std::string> int_vars_;              // declared with an integer type
  std::set<std::string> headers_;

  bool rocprim_at(std::size_t ci) const {
    return f_.is(ci, "rocprim") && f_.is(ci + 1, "::") && !(ci > 0 && f_.is(ci - 1, "::")) && !f_.excluded(ci);
  }

  // Adds <h> unless the file includes it, or a header the rules turn into it; CUB's own headers
  // count as <cub/cub.cuh> (a rocPRIM header becomes one).
  void include_once(const std::string& h) {
    for (std::size_t ci = 0; ci < f_.code_size(); ++ci) {
      if (f_.code(ci).kind != lex::Kind::HeaderName) continue;
      std::string_view path = f_.text(ci).substr(1, f_.text(ci).size() - 2);
      if (const rules::Rule* r = f_.target().rules().find_header(path); r && r->has_replacement()) path = r->to;
      if (path == h || (h == "cub/cub.cuh" && path.starts_with("cub/"))) return;
    }
    // libcu++'s functor headers have no HIP counterpart: recorded as added, the way back drops them
    const bool functional = h == "cuda/std/functional" || h == "cuda/functional";
    f_.insert_line_at_top("#include <" + h + ">" +
                          (functional ? " " + std::string(rewrite::record::to_hip::kAdded) : std::string()) + "\n");
  }

  std::size_t angle_close(std::size_t open) const { return analysis::angle_close(f_, open); }

  void collect_names() {
    for (std::size_t ci = 0; ci + 3 < f_.code_size(); ++ci) {
      // using NAME = rocprim::block_x<   /   typedef rocprim::block_x<...> NAME;
      if (f_.is(ci, "using") && f_.is_identifier(ci + 1) && f_.is(ci + 2, "=") && rocprim_at(ci + 3) &&
          find(kBlockTypes, f_.text(ci + 5)))
        aliases_.insert(std::string(f_.text(ci + 1)));
      if (f_.is(ci, "typedef") && rocprim_at(ci + 1) && find(kBlockTypes, f_.text(ci + 3)) && f_.is(ci + 4, "<")) {
        const std::size_t close = angle_close(ci + 4);
        if (close != npos && f_.is_identifier(close + 1)) aliases_.insert(std::string(f_.text(close + 1)));
      }
      if (f_.is(ci, "storage_type")) {
        std::size_t k = ci + 1;
        while (f_.is(k, "&")) ++k;
        if (f_.is_identifier(k)) storage_.insert(std::string(f_.text(k)));
      }
      // NAME = rocprim::functor / NAME = [ ... (a lambda)
      if (f_.is_identifier(ci) && f_.is(ci + 1, "=") && ci > 0 && (f_.is(ci - 1, "auto") || f_.is_identifier(ci - 1))) {
        if (rocprim_at(ci + 2) && find(kFunctors, f_.text(ci + 4)))
          op_vars_[std::string(f_.text(ci))] = std::string(find(kFunctors, f_.text(ci + 4))->cub);
        else if (f_.is(ci + 2, "[")) op_vars_[std::string(f_.text(ci))] = "";
      }
      // rocprim::plus<int> NAME
      if (rocprim_at(ci) && find(kFunctors, f_.text(ci + 2)) && f_.is(ci + 3, "<")) {
        const std::size_t close = angle_close(ci + 3);
        if (close != npos && f_.is_identifier(close + 1))
          op_vars_[std::string(f_.text(close + 1))] = std::string(find(kFunctors, f_.text(ci + 2))->cub);
      }
      static const std::set<std::string_view> ints = {"int",      "unsigned", "long",     "short",   "size_t",
                                                      "uint32_t", "int32_t",  "uint64_t", "int64_t", "char"};
      if (f_.is_identifier(ci) && ints.contains(f_.text(ci)) && f_.is_identifier(ci + 1) &&
          !ints.contains(f_.text(ci + 1)))
        int_vars_.insert(std::string(f_.text(ci + 1)));
    }
  }

  // ---- what an argument is
  bool is_storage(const ArgRange& a) const {
    for (std::size_t k = a.first; k <= a.last; ++k)
      if (f_.is_identifier(k) && storage_.contains(std::string(f_.text(k)))) return true;
    return false;
  }
  bool is_op(const ArgRange& a) const {
    if (a.empty()) return false;
    if (f_.is(a.first, "[")) return true;  // lambda
    if (a.first == a.last && f_.is_identifier(a.first)) return op_vars_.contains(std::string(f_.text(a.first)));
    if (rocprim_at(a.first) && find(kFunctors, f_.text(a.first + 2))) return true;
    // Functor() / Functor{} / Functor<T>() of any other name: an object built in place.
    return (f_.is(a.last, ")") || f_.is(a.last, "}")) && f_.is_identifier(a.first) &&
           !int_vars_.contains(std::string(f_.text(a.first)));
  }

  // The argument's text, its rocPRIM functors in CUB's spelling.
  std::string arg_text(const ArgRange& a) {
    std::string out;
    for (std::size_t k = a.first; k <= a.last; ++k) {
      if (k > a.first) {  // the spacing (and comments) between tokens, as written
        const std::size_t gap_b = f_.code(k - 1).end, gap_e = f_.code(k).begin;
        out += f_.source().substr(gap_b, gap_e - gap_b);
      }
      if (rocprim_at(k) && find(kFunctors, f_.text(k + 2))) {
        const Name* n = find(kFunctors, f_.text(k + 2));
        out += functor_text(*n);
        headers_.insert(functor_header(n->cub));
        k += 2;
        continue;
      }
      out += f_.text(k);
    }
    return out;
  }
  std::string join(std::vector<std::string> parts) {
    std::string s;
    for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    return s;
  }

  std::set<std::size_t> reported_;
  void no_cub(std::size_t ci, const std::string& what, const std::string& hint) {
    if (!reported_.insert(ci).second) return;
    f_.count_unconverted("cub");
    f_.diag(Diag::RocprimNoCub, ci,
            what + ": rocPRIM has no CUDA backend and Ferry knows no CUB form of this use; left unchanged", hint);
  }

  // ---- rocprim::reduce(...) and the other device-wide algorithms
  void device_calls() {
    for (std::size_t ci = 0; ci + 3 < f_.code_size(); ++ci) {
      if (!rocprim_at(ci) || !f_.is_identifier(ci + 2) || f_.touched(ci)) continue;
      std::size_t open = ci + 3;
      if (f_.is(open, "<")) {  // rocprim::reduce<config>(...)
        const std::size_t close = angle_close(open);
        if (close == npos) continue;
        open = close + 1;
      }
      if (!f_.is(open, "(")) continue;
      const std::string_view name = f_.text(ci + 2);
      const std::size_t close = f_.match_bracket(open);
      if (close == npos) continue;
      std::vector<ArgRange> a = f_.call_args(open);
      std::vector<std::string> t;
      for (const ArgRange& r : a) t.push_back(arg_text(r));
      auto stream_from = [&](std::size_t i, std::size_t max_args) {
        std::vector<std::string> s;
        if (a.size() > max_args + 1) return std::optional<std::vector<std::string>>{};  // unknown overload
        if (i < a.size()) s.push_back(t[i]);  // the stream; debug_synchronous (i + 1) dropped
        return std::optional<std::vector<std::string>>{s};
      };
      std::string call;
      if (name == "reduce" && a.size() >= 6) {
        if (is_op(a[5]) && !(a.size() >= 7 && is_op(a[6]))) {
          // reduce(temp, bytes, in, out, size, op[, stream[, debug]]): no initial value
          const auto s = stream_from(6, 7);
          std::string which;
          std::string op = t[5];
          if (const auto it = op_vars_.find(op); it != op_vars_.end()) op = it->second;  // the variable's functor
          if (op.find("cuda::std::plus") != std::string::npos) which = "Sum";
          else if (op.find("cuda::maximum") != std::string::npos) which = "Max";
          else if (op.find("cuda::minimum") != std::string::npos) which = "Min";
          if (!s || which.empty()) {
            no_cub(ci, "rocprim::reduce without an initial value",
                   "cub::DeviceReduce::Reduce needs one: pass the operator's identity as rocPRIM's initial_value");
            continue;
          }
          std::vector<std::string> args = {t[0], t[1], t[2], t[3], t[4]};
          args.insert(args.end(), s->begin(), s->end());
          call = "cub::DeviceReduce::" + which + "(" + join(args) + ")";
        } else if (a.size() >= 7 && is_op(a[6])) {
          // reduce(temp, bytes, in, out, init, size, op[, stream[, debug]])
          const auto s = stream_from(7, 8);
          if (!s) continue;
          std::vector<std::string> args = {t[0], t[1], t[2], t[3], t[5], t[6], t[4]};
          args.insert(args.end(), s->begin(), s->end());
          call = "cub::DeviceReduce::Reduce(" + join(args) + ")";
        }
      } else if (name == "inclusive_scan" && a.size() >= 6 && is_op(a[5])) {
        const auto s = stream_from(6, 7);
        if (!s) continue;
        std::vector<std::string> args = {t[0], t[1], t[2], t[3], t[5], t[4]};
        args.insert(args.end(), s->begin(), s->end());
        call = "cub::DeviceScan::InclusiveScan(" + join(args) + ")";
      } else if (name == "exclusive_scan" && a.size() >= 7 && is_op(a[6])) {
        const auto s = stream_from(7, 8);
        if (!s) continue;
        std::vector<std::string> args = {t[0], t[1], t[2], t[3], t[6], t[4], t[5]};
        args.insert(args.end(), s->begin(), s->end());
        call = "cub::DeviceScan::ExclusiveScan(" + join(args) + ")";
      } else if (name == "radix_sort_keys" && a.size() >= 5 && a.size() <= 9) {
        std::vector<std::string> args(t.begin(), t.begin() + static_cast<long>(std::min<std::size_t>(a.size(), 8)));
        call = "cub::DeviceRadixSort::SortKeys(" + join(args) + ")";
      } else if (name == "radix_sort_pairs" && a.size() >= 7 && a.size() <= 11) {
        std::vector<std::string> args(t.begin(), t.begin() + static_cast<long>(std::min<std::size_t>(a.size(), 10)));
        call = "cub::DeviceRadixSort::SortPairs(" + join(args) + ")";
      } else if (name == "reduce" || name == "inclusive_scan" || name == "exclusive_scan" ||
                 name == "radix_sort_keys" || name == "radix_sort_pairs" || name == "transform" || name == "select" ||
                 name == "unique" || name == "partition" || name == "run_length_encode" || name == "segmented_reduce" ||
                 name == "merge" || name == "histogram_even" || name == "histogram_range" ||
                 name == "segmented_radix_sort_keys" || name == "segmented_radix_sort_pairs") {
        no_cub(ci, "rocprim::" + std::string(name) + " with " + std::to_string(a.size()) + " arguments",
               "write the CUB call (cub::Device*) by hand; see CUB's documentation for its argument order");
        continue;
      }
      if (call.empty()) continue;
      if (!f_.replace(ci, close, call)) continue;
      headers_.insert("cub/cub.cuh");
      f_.count_converted("cub");
      f_.diag(Diag::RocprimToCub, ci,
              "rocprim::" + std::string(name) + " -> " + call.substr(0, call.find('(')) +
                  " (arguments in CUB's order, debug_synchronous dropped)",
              "");
    }
  }

  // ---- obj.load(...), obj.reduce(...), ... on rocPRIM block primitives
  // Where the object expression starts: ALIAS{} / ALIAS() / rocprim::block_x<...>{} before the '.'.
  std::size_t object_start(std::size_t dot, std::size_t& ctor_open) const {
    if (dot < 3) return npos;
    const std::size_t last = dot - 1;
    std::size_t open = npos;
    if (f_.is(last, "}") || f_.is(last, ")")) {
      for (std::size_t k = last; k-- > 0;)
        if ((f_.is(k, "{") || f_.is(k, "(")) && f_.match_bracket(k) == last) {
          open = k;
          break;
        }
    }
    if (open == npos || open == 0) return npos;
    ctor_open = open;
    const std::size_t name_end = open - 1;
    if (f_.is_identifier(name_end) && aliases_.contains(std::string(f_.text(name_end)))) {
      std::size_t b = name_end;
      if (b > 0 && f_.is(b - 1, "typename")) --b;
      return b;
    }
    if (f_.is(name_end, ">")) {
      for (std::size_t k = name_end; k-- > 2;)
        if (f_.is(k, "<") && angle_close(k) == name_end) {
          if (k >= 3 && rocprim_at(k - 3) && find(kBlockTypes, f_.text(k - 1))) return k - 3;
          break;
        }
    }
    return npos;
  }

  void block_methods() {
    static const std::set<std::string_view> methods = {"load", "store", "reduce", "inclusive_scan", "exclusive_scan"};
    for (std::size_t ci = 1; ci + 2 < f_.code_size(); ++ci) {
      if (!f_.is(ci, ".") || !f_.is_identifier(ci + 1) || !methods.contains(f_.text(ci + 1)) || !f_.is(ci + 2, "("))
        continue;
      std::size_t ctor = npos;
      const std::size_t start = object_start(ci, ctor);
      if (start == npos || f_.excluded(ci)) continue;
      const std::string_view m = f_.text(ci + 1);
      const std::size_t open = ci + 2, close = f_.match_bracket(open);
      if (close == npos) continue;
      const std::vector<ArgRange> a = f_.call_args(open);
      // Sort the arguments after the fixed ones: storage, operator, values.
      const std::size_t fixed = m == "exclusive_scan" ? 3 : 2;
      if (a.size() < fixed) continue;
      std::string storage, op;
      std::vector<std::string> values;
      bool ok = true;
      for (std::size_t i = fixed; i < a.size(); ++i) {
        if (is_storage(a[i]) && storage.empty()) storage = arg_text(a[i]);
        else if (i + 1 == a.size() && is_op(a[i]) && m != "load" && m != "store") op = arg_text(a[i]);
        else if (storage.empty()) values.push_back(arg_text(a[i]));
        else ok = false;
      }
      std::string call;
      std::string assign;
      const std::string in = arg_text(a[0]), out = arg_text(a[1]);
      if (m == "load" || m == "store") {
        if (values.size() > 2) ok = false;
        std::vector<std::string> args = {in, out};
        args.insert(args.end(), values.begin(), values.end());
        call = std::string(m == "load" ? "Load" : "Store") + "(" + join(args) + ")";
      } else if (m == "reduce") {
        // reduce(input, output[, valid_items][, storage][, op]) -> output = Reduce(input, op[, valid_items])
        if (values.size() > 1) ok = false;
        std::vector<std::string> args = {in, op.empty() ? functor_text(kFunctors[0]) + "<>()" : op};
        args.insert(args.end(), values.begin(), values.end());
        call = "Reduce(" + join(args) + ")";
        assign = out + " = ";
      } else if (m == "inclusive_scan") {
        // inclusive_scan(input, output[, reduction][, storage][, op]) -> InclusiveScan(input, output, op[, reduction])
        if (values.size() > 1) ok = false;
        std::vector<std::string> args = {in, out, op.empty() ? functor_text(kFunctors[0]) + "<>()" : op};
        args.insert(args.end(), values.begin(), values.end());
        call = "InclusiveScan(" + join(args) + ")";
      } else {
        // exclusive_scan(input, output, init[, reduction][, storage][, op]) -> ExclusiveScan(input, output, init, op[,
        // reduction])
        if (values.size() > 1) ok = false;
        std::vector<std::string> args = {in, out, arg_text(a[2]),
                                         op.empty() ? functor_text(kFunctors[0]) + "<>()" : op};
        args.insert(args.end(), values.begin(), values.end());
        call = "ExclusiveScan(" + join(args) + ")";
      }
      if (op.empty() && m != "load" && m != "store") headers_.insert("cuda/std/functional");
      // `output = ` needs the call to be a statement of its own.
      const bool statement = start == 0 || f_.is(start - 1, ";") || f_.is(start - 1, "{") || f_.is(start - 1, "}");
      if (!assign.empty() && !(statement && f_.is(close + 1, ";"))) ok = false;
      // Storage moves into the constructor: ALIAS{} / ALIAS() -> ALIAS(storage).
      if (!storage.empty() && f_.match_bracket(ctor) != ctor + 1) ok = false;
      if (!ok) {
        no_cub(ci + 1, "rocPRIM block method '" + std::string(m) + "' in a form Ferry cannot rewrite",
               "write it with CUB's collective: Block*(temp_storage)." + std::string(m == "load" ? "Load" : "Reduce") +
                   "(...)");
        continue;
      }
      if (!storage.empty() && !f_.replace(ctor, ctor + 1, "(" + storage + ")")) continue;
      if (!f_.replace(ci + 1, close, call)) continue;
      if (!assign.empty()) f_.insert_before(start, assign);
      f_.count_converted("cub");
      f_.diag(Diag::RocprimToCub, ci + 1,
              "rocPRIM block method '" + std::string(m) + "' -> CUB's " + call.substr(0, call.find('(')) +
                  (storage.empty() ? "" : " (its storage passed to the constructor)"),
              "");
    }
  }

  // ---- types, storage_type, algorithm enumerators, functors
  void names() {
    for (std::size_t ci = 0; ci + 2 < f_.code_size(); ++ci) {
      if (f_.is(ci, "storage_type") && ci > 1 && f_.is(ci - 1, "::") && !f_.touched(ci)) {
        // ALIAS::storage_type or rocprim::block_x<...>::storage_type
        bool ours = f_.is_identifier(ci - 2) && aliases_.contains(std::string(f_.text(ci - 2)));
        if (!ours && f_.is(ci - 2, ">")) {
          for (std::size_t k = ci - 2; k-- > 2;)
            if (f_.is(k, "<") && angle_close(k) == ci - 2) {
              ours = rocprim_at(k - 3) && find(kBlockTypes, f_.text(k - 1));
              break;
            }
        }
        if (ours && f_.replace(ci, ci, "TempStorage")) f_.count_converted("cub");
        continue;
      }
      if (!rocprim_at(ci) || f_.touched(ci) || !f_.is_identifier(ci + 2)) continue;
      const std::string_view n = f_.text(ci + 2);
      if (const Name* t = find(kBlockTypes, n)) {
        if (f_.replace(ci, ci + 2, std::string(t->cub))) {
          headers_.insert("cub/cub.cuh");
          f_.count_converted("cub");
        }
        continue;
      }
      if (const Name* fn = find(kFunctors, n)) {
        if (f_.replace(ci, ci + 2, functor_text(*fn))) {
          headers_.insert(functor_header(fn->cub));
          f_.count_converted("cub");
        }
        continue;
      }
      bool is_enum = false;
      for (std::string_view e : kEnums) is_enum = is_enum || n == e;
      if (is_enum && f_.is(ci + 3, "::") && f_.is_identifier(ci + 4)) {
        if (const Name* al = find(kAlgorithms, f_.text(ci + 4)); al && f_.replace(ci, ci + 4, std::string(al->cub))) {
          f_.count_converted("cub");
          continue;
        }
      }
      if (!reported_.contains(ci))
        no_cub(ci, "rocprim::" + std::string(n), "use CUB's counterpart, if it has one (cub::, thrust::, cuda::std::)");
    }
  }
};

}  // namespace

void rocprim_pass(FileMigration& file) { RocprimPass(file).run(); }

}  // namespace ferry::targets::cuda
