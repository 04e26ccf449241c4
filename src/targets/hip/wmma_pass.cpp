// CUDA WMMA (mma.h, nvcuda::wmma) -> rocWMMA. The header and `nvcuda::wmma::` are rule rows
// (rules/cuda2hip/wmma.tsv); this pass does what a rename cannot: `using namespace nvcuda;`
// (then `wmma::X` means nvcuda::wmma::X), the element types rocWMMA spells otherwise (TF32 and
// bf16), the names rocWMMA lacks, and each fragment's shape against the blocks rocWMMA has per
// architecture (rules/rocwmma_blocks.tsv, FRY1401).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/facts.h"
#include "rewrite/roundtrip_record.h"
#include "rules/builtin.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using migrate::FileMigration;
using migrate::npos;

// The architectures a port is checked for: the wave64 matrix-core GPUs (MI100, MI200).
constexpr std::string_view kCheckedArchs[] = {"gfx908", "gfx90a"};

struct Block {
  std::string type;
  long long m = 0, n = 0, k_min = 0;
  std::set<std::string> archs;
};

std::vector<Block> load_blocks() {
  std::vector<Block> out;
  const std::string_view text = rules::builtin_table("rocwmma_blocks.tsv");
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::size_t a = 0;
    while (true) {
      const std::size_t t = line.find('\t', a);
      f.emplace_back(line.substr(a, t == std::string_view::npos ? std::string_view::npos : t - a));
      if (t == std::string_view::npos) break;
      a = t + 1;
    }
    if (f.size() != 5) continue;
    Block b{f[0], std::stoll(f[1]), std::stoll(f[2]), std::stoll(f[3]), {}};
    std::size_t s = 0;
    while (s <= f[4].size()) {
      const std::size_t c = f[4].find(',', s);
      b.archs.insert(f[4].substr(s, c == std::string::npos ? std::string::npos : c - s));
      if (c == std::string::npos) break;
      s = c + 1;
    }
    out.push_back(std::move(b));
  }
  return out;
}

const std::vector<Block>& blocks() {
  static const std::vector<Block> table = load_blocks();
  return table;
}

bool pow2(long long v) { return v > 0 && (v & (v - 1)) == 0; }

// The architectures that have a block for fragment <m, n, k> of element class `type`.
std::set<std::string> archs_with(std::string_view type, long long m, long long n, long long k) {
  std::set<std::string> out;
  for (const Block& b : blocks())
    if (b.type == type && b.m == m && b.n == n && pow2(k) && k >= b.k_min) out.insert(b.archs.begin(), b.archs.end());
  return out;
}

// Names nvcuda::wmma has and rocWMMA keeps.
bool same_in_rocwmma(std::string_view s) {
  static const std::set<std::string_view> names = {
      "fragment",  "matrix_a",         "matrix_b",         "accumulator", "row_major",
      "col_major", "mem_row_major",    "mem_col_major",    "layout_t",    "fill_fragment",
      "mma_sync",  "load_matrix_sync", "store_matrix_sync"};
  return names.count(s) > 0;
}

class WmmaPass {
 public:
  WmmaPass(FileMigration& f, const analysis::FileFactsSlot& facts) : f_(f), facts_(facts) {}

  void run() {
    if (!f_.mentions("nvcuda")) return;
    // `wmma::` names nvcuda::wmma in the whole file, also in macros defined above the `using`
    // (cuda-samples: `#define C_LAYOUT wmma::mem_row_major`).
    // Every form below starts at `using`, `namespace`, `nvcuda` or `wmma`: their occurrences are
    // visited in file order, the other tokens could match nothing.
    for (const std::uint32_t ci : f_.occurrences({"using", "namespace"})) {
      if (ci + 5 >= f_.code_size() || alias_) break;
      alias_ = (f_.is(ci, "using") && f_.is(ci + 1, "namespace") && f_.is(ci + 2, "nvcuda") && f_.is(ci + 3, ";")) ||
               (f_.is(ci, "namespace") && f_.is(ci + 1, "wmma") && f_.is(ci + 2, "=") && f_.is(ci + 3, "nvcuda") &&
                f_.is(ci + 4, "::") && f_.is(ci + 5, "wmma"));
    }
    for (const std::uint32_t ci : f_.occurrences({"using", "nvcuda", "wmma"})) {
      if (ci + 3 >= f_.code_size()) break;
      if (f_.excluded(ci)) continue;
      // using namespace nvcuda;  ->  namespace wmma = rocwmma;  (what `wmma::` then names)
      if (f_.is(ci, "using") && f_.is(ci + 1, "namespace") && f_.is(ci + 2, "nvcuda")) {
        if (f_.is(ci + 3, ";")) {
          if (f_.replace(ci, ci + 3, "namespace wmma = rocwmma;")) f_.count_converted("wmma");
          alias_ = true;
        } else if (f_.is(ci + 3, "::") && f_.is(ci + 4, "wmma") && f_.is(ci + 5, ";")) {
          if (f_.replace(ci, ci + 5, "using namespace rocwmma;")) f_.count_converted("wmma");
        }
        continue;
      }
      // namespace wmma = nvcuda::wmma;  ->  namespace wmma = rocwmma /* ferry-cuda: nvcuda::wmma */;
      // (recorded: the way back writes `using namespace nvcuda;` for an unrecorded alias, the
      // spelling above; rewrite/roundtrip_record.h)
      if (f_.is(ci, "nvcuda") && f_.is(ci + 1, "::") && f_.is(ci + 2, "wmma") && !f_.is(ci + 3, "::")) {
        const std::string_view original = f_.span_text(ci, ci + 2);
        if (ci > 0 && f_.is(ci - 1, "=") &&
            f_.replace(ci, ci + 2,
                       "rocwmma" + (rewrite::record::is_spelling(original) && rewrite::record::recordable(original)
                                        ? " " + rewrite::record::make(original)
                                        : std::string())))
          f_.count_converted("wmma");
        alias_ = alias_ || (ci > 2 && f_.is(ci - 2, "wmma") && f_.is(ci - 3, "namespace"));
        continue;
      }
      qualified(ci);
    }
    fill_values();
  }

 private:
  // `nvcuda::wmma::NAME` or, under the alias, `wmma::NAME` at `ci`: the namespace part is
  // [ci, ns_last]; NAME follows.
  void qualified(std::size_t ci) {
    std::size_t ns_last = npos;
    if (f_.is(ci, "nvcuda") && f_.is(ci + 1, "::") && f_.is(ci + 2, "wmma") && f_.is(ci + 3, "::")) ns_last = ci + 2;
    else if (alias_ && f_.is(ci, "wmma") && f_.is(ci + 1, "::") && !(ci > 0 && f_.is(ci - 1, "::")) &&
             !f_.is_member_name(ci))
      ns_last = ci;
    if (ns_last == npos || f_.touched(ci)) return;
    const std::size_t name = ns_last + 2;
    const std::string_view s = f_.text(name);
    if (s == "precision" && f_.is(name + 1, "::") && f_.is(name + 2, "tf32")) {
      // recorded (rewrite/roundtrip_record.h, spelling): `float /* ferry-cuda: wmma::precision::tf32 */`
      const std::string_view original = f_.span_text(ci, name + 2);
      const bool record =
          rewrite::record::recordable(original) && original.find_first_of(" \t\n") == std::string_view::npos;
      if (f_.replace(ci, name + 2, record ? "float " + rewrite::record::make(original) : std::string("float")))
        f_.count_converted("wmma");
      return;  // the fragment it is in reports it (FRY4109)
    }
    if (s == "__float_to_tf32") {
      // Recorded (rewrite/roundtrip_record.h, span) where parentheses can open: `(static_cast<float>(x))
      // /* ferry-cuda: wmma::__float_to_tf32(x) */`.
      const std::size_t close = f_.is(name + 1, "(") ? f_.match_bracket(name + 1) : npos;
      const bool record = close != npos && rewrite::record::span_can_open(f_, ci) && !f_.excluded(close) &&
                          rewrite::record::recordable(f_.span_text(ci, close));
      if (f_.replace(ci, name, record ? "(static_cast<float>" : "static_cast<float>")) {
        f_.count_converted("wmma");
        if (record)
          f_.replace_bytes(f_.code(close).end, f_.code(close).end,
                           ") " + rewrite::record::make(f_.span_text(ci, close)));
      }
      f_.diag(Diag::WmmaElementChanged, Severity::Note, name,
              "wmma::__float_to_tf32 becomes a float conversion: TF32 fragments are float fragments in rocWMMA",
              "nothing to do on gfx908/gfx90a (fp32 matrix cores compute at full fp32 precision)");
      return;
    }
    if (!same_in_rocwmma(s)) {
      f_.replace(ci, ns_last, "rocwmma");
      f_.count_unconverted("wmma");
      f_.diag(Diag::WmmaRocwmmaLacks, Severity::Warning, name,
              "nvcuda::wmma::" + std::string(s) + " has no rocWMMA counterpart",
              s == "experimental" || s == "bmma_sync"
                  ? "rocWMMA has no sub-byte (s4, u4) or 1-bit fragments: widen the data to 8-bit integers (i8 "
                    "16x16x16)"
                  : "rewrite this part with rocWMMA's fragment, fill_fragment, load_matrix_sync, "
                    "store_matrix_sync and mma_sync");
      return;
    }
    if (f_.replace(ci, ns_last, "rocwmma")) f_.count_converted("wmma");
    if (s == "fragment" && f_.is(name + 1, "<")) fragment(name);
  }

  // fragment<use, m, n, k, T[, layout]> at `name`.
  void fragment(std::size_t name) {
    const std::size_t open = name + 1;
    std::vector<std::pair<std::size_t, std::size_t>> args;
    std::size_t start = open + 1;
    int depth = 0;
    std::size_t close = npos;
    for (std::size_t k = start; k < f_.code_size(); ++k) {
      if (f_.is(k, "(") || f_.is(k, "[")) {
        if (f_.partner(k) == npos) return;
        k = f_.partner(k);
      } else if (f_.is(k, "<")) ++depth;
      else if (f_.is(k, ">") || f_.is(k, ">>")) {
        const int d = f_.is(k, ">>") ? 2 : 1;
        if (depth < d) {
          if (d == 2 && depth == 1) return;  // `>>` closes us and an outer list: not ours to parse
          close = k;
          break;
        }
        depth -= d;
      } else if (f_.is(k, ",") && depth == 0) {
        args.emplace_back(start, k - 1);
        start = k + 1;
      } else if (f_.is(k, ";") || f_.is(k, "{")) return;
    }
    if (close == npos) return;
    args.emplace_back(start, close - 1);
    if (args.size() < 5) return;
    auto last_word = [&](std::pair<std::size_t, std::size_t> a) { return f_.text(a.second); };
    const std::string_view use = last_word(args[0]);
    const bool ab = use == "matrix_a" || use == "matrix_b";
    // The element type as written (after the rules: `precision::tf32` is `float` already).
    std::string type;
    bool tf32 = false, bf16 = false;
    for (std::size_t k = args[4].first; k <= args[4].second; ++k) {
      if (f_.is(k, "tf32")) tf32 = true;
      if (f_.is(k, "__nv_bfloat16")) {
        bf16 = f_.replace(k, k, "rocwmma::bfloat16_t") || bf16;
        if (bf16) f_.count_converted("wmma");
      }
      if (f_.is(k, "::") || f_.is(k, "nvcuda") || f_.is(k, "wmma") || f_.is(k, "precision") || f_.is(k, "const"))
        continue;
      if (!type.empty()) type += ' ';
      type += f_.text(k);
    }
    std::string cls;
    if (tf32 || (type == "float" && f_.span_text(args[4].first, args[4].second).find("tf32") != std::string::npos))
      cls = "f32", tf32 = true;
    else if (type == "half" || type == "__half") cls = "half";
    else if (type == "__nv_bfloat16") cls = "bf16";
    else if (type == "signed char" || type == "char" || type == "int8_t") cls = "s8";
    else if (type == "unsigned char" || type == "uint8_t") cls = "u8";
    else if (type == "double") cls = "f64";
    else if (type == "float") cls = "f32";
    else if (type == "experimental s4" || type == "experimental u4" || type == "experimental b1")
      cls = type.substr(type.size() - 2);
    if (tf32)
      f_.diag(Diag::WmmaElementChanged, Severity::Note, name,
              "TF32 fragment written as a float fragment: rocWMMA's xfloat32_t has matrix-core blocks on gfx942 only",
              "on gfx908/gfx90a the product is computed in full fp32 (more precise than TF32, at fp32 matrix-core "
              "speed); nothing to do unless the port targets gfx942 (then rocwmma::xfloat32_t)");
    if (bf16 && ab)
      f_.diag(Diag::WmmaElementChanged, Severity::Warning, name,
              "bf16 fragment: rocWMMA's element type is rocwmma::bfloat16_t (hip_bfloat16), not __hip_bfloat16",
              "pass the matrices to load_matrix_sync/store_matrix_sync as rocwmma::bfloat16_t pointers "
              "(reinterpret_cast: the same 16 bits)");
    // The fragments this declaration names (`fragment<...> acc, c[2];`): their element type, for
    // fill_fragment's value.
    for (std::size_t k = close + 1; k < f_.code_size() && f_.is_identifier(k); ++k) {
      element_types_[std::string(f_.text(k))] = type;
      while (k + 1 < f_.code_size() && f_.is(k + 1, "[") && f_.partner(k + 1) != npos) k = f_.partner(k + 1);
      if (!f_.is(k + 1, ",")) break;
      ++k;
    }
    if (!ab || cls.empty()) return;
    const auto m = analysis::eval_constant(f_, facts(), args[1].first, args[1].second, scope(name));
    const auto n = analysis::eval_constant(f_, facts(), args[2].first, args[2].second, scope(name));
    const auto k = analysis::eval_constant(f_, facts(), args[3].first, args[3].second, scope(name));
    if (!m || !n || !k) return;
    const std::set<std::string> have = archs_with(cls, *m, *n, *k);
    std::string lacking;
    for (std::string_view a : kCheckedArchs)
      if (!have.count(std::string(a))) lacking += (lacking.empty() ? "" : ", ") + std::string(a);
    if (lacking.empty()) return;
    f_.count_unconverted("wmma");
    std::string on;
    for (const std::string& a : have) on += (on.empty() ? "" : ", ") + a;
    const std::string shape = std::to_string(*m) + "x" + std::to_string(*n) + "x" + std::to_string(*k);
    std::string hint;
    if (cls == "u8" || cls == "s4" || cls == "u4" || cls == "b1")
      hint = "rocWMMA has 8-bit signed integers only: convert the data to signed char (i8 16x16x16)";
    else if (cls == "f64")
      hint = "use 16x16x4 double fragments (rocWMMA's f64 block; gfx90a and later) and tile the computation by 16";
    else
      hint =
          "use a block rocWMMA has (16x16 or 32x32 with the K of rules/rocwmma_blocks.tsv; for half 16x16x16 "
          "or 32x32x8) and retile the loops";
    f_.diag(Diag::WmmaRocwmmaLacks, Severity::Warning, name,
            "WMMA fragment " + shape + " of " + cls + ": rocWMMA has no such block on " + lacking +
                (on.empty() ? "" : " (only on " + on + ")"),
            hint);
  }

  // `fill_fragment(acc, 0.0f)` with `acc` an int fragment: CUDA's fill_fragment converts the value
  // to the element type, rocWMMA's deduces its DataT from both arguments ("no matching function").
  // The value gets the fragment's element type as a cast, with a round-trip record of it.
  void fill_values() {
    for (const std::uint32_t ci : f_.occurrences("fill_fragment")) {
      if (ci + 1 >= f_.code_size()) break;
      if (!f_.is(ci + 1, "(") || f_.excluded(ci)) continue;
      const std::vector<migrate::ArgRange> args = f_.call_args(ci + 1);
      if (args.size() != 2 || args[0].empty() || args[1].empty() || !f_.is_identifier(args[0].first)) continue;
      const auto it = element_types_.find(std::string(f_.text(args[0].first)));
      if (it == element_types_.end() || it->second.empty() || it->second == "half" || it->second == "__half" ||
          it->second.find("bfloat16") != std::string::npos)
        continue;  // a type the value converts to already, or one whose spelling the rules change
      // A literal of another kind than the element type (0.0f for int, 0 for float); other values
      // are left as written (their type is not known here).
      if (args[1].first != args[1].last || !f_.is_number(args[1].first)) continue;
      const std::string_view value = f_.text(args[1].first);
      const bool hex = value.size() > 1 && value[0] == '0' && (value[1] == 'x' || value[1] == 'X');
      const bool floating = !hex && value.find_first_of(".eE") != std::string_view::npos;
      const bool f_suffix = floating && (value.ends_with('f') || value.ends_with('F'));
      const std::string& type = it->second;
      const bool integral_type = type != "float" && type != "double";
      if ((type == "float" && f_suffix) || (type == "double" && floating && !f_suffix) || (integral_type && !floating))
        continue;
      if (!rewrite::record::recordable(value) || f_.touched(args[1].first)) continue;
      if (!f_.insert_before(args[1].first, "(static_cast<" + it->second + ">(")) continue;
      f_.replace_bytes(f_.code(args[1].last).end, f_.code(args[1].last).end, ")) " + rewrite::record::make(value));
      f_.count_converted("wmma");
    }
  }

  const analysis::FunctionInfo* scope(std::size_t ci) const {
    const std::size_t fi = facts().function_at(ci);
    return fi == npos ? nullptr : &facts().functions[fi];
  }

  FileMigration& f_;
  // The file's facts (constants, functions), shared with the other passes: collected (if the
  // planner kept none) when a fragment's shape is first read, as most files that name nvcuda never ask.
  const analysis::FileFacts& facts() const { return facts_.get(); }
  const analysis::FileFactsSlot& facts_;
  bool alias_ = false;  // `wmma::` names nvcuda::wmma (using namespace nvcuda; or an alias)
  std::map<std::string, std::string> element_types_;  // fragment variable -> element type as written
};

}  // namespace

void wmma_pass(FileMigration& file, const analysis::FileFactsSlot& facts) { WmmaPass(file, facts).run(); }

}  // namespace ferry::targets::hip
