// __half and complex pointers in the arguments of hipBLAS calls.
//
// cuBLAS declares cublasHgemm and its family on __half*; hipBLAS declares them on hipblasHalf*,
// which is uint16_t (every release through 6.x, unless the build defines HIPBLAS_USE_HIP_HALF),
// and a __half* does not convert to it: "no matching function for call to hipblasHgemm". Each such
// argument of a call that the tables convert to one of those functions gets the parameter's type
// as a cast, `((const hipblasHalf*)(a))`, with a round-trip record of the argument (the "span"
// form of rewrite/roundtrip_record.h). The bits are the same: __half and uint16_t both hold the
// 16-bit IEEE half.
//
// Complex BLAS: the tables map cublasCgemm to hipBLAS 6.0's hipblasCgemm_v2, which takes
// hipComplex (the migrated cuComplex). hipBLAS before 6.0 has hipblasCgemm on hipblasComplex*
// (a struct of two floats, like hipFloatComplex, unless ROCM_MATHLIBS_API_USE_HIP_COMPLEX). For such
// a release the call becomes the 5.x function, its name recorded (`hipblasCgemm /* ferry-cuda:
// cublasCgemm */`), and its complex pointer arguments are cast the same way.
//
// The parameters are data, rules/hipblas_half_params.tsv and rules/hipblas_complex_params.tsv (made
// from hipBLAS's header by rules/make_hipblas_half_params.py). Only with --blas=hipblas.
#include <map>
#include <string>
#include <vector>

#include "analysis/names.h"
#include "core/split.h"
#include "rewrite/roundtrip_record.h"
#include "rules/builtin.h"
#include "rules/rule_set.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

// hipBLAS function -> (parameter index -> type)
using PointerParams = std::map<std::string, std::map<std::size_t, std::string>, std::less<>>;

PointerParams load(std::string_view table) {
  PointerParams t;
  for (std::string_view row : table_rows(rules::builtin_table(table))) {
    const std::vector<std::string_view> f = split(row, '\t');
    if (f.size() != 2) continue;
    auto& params = t[std::string(f[0])];
    for (std::string_view p : split(f[1], ';')) {
      const std::size_t colon = p.find(':');
      if (colon == std::string_view::npos) continue;
      params[std::stoul(std::string(p.substr(0, colon)))] = std::string(p.substr(colon + 1));
    }
  }
  return t;
}

const PointerParams& half_params() {
  static const PointerParams table = load("hipblas_half_params.tsv");
  return table;
}

const PointerParams& complex_params() {  // hipBLAS 5.x
  static const PointerParams table = load("hipblas_complex_params.tsv");
  return table;
}

void cast_arguments(migrate::FileMigration& file, std::size_t open, const std::map<std::size_t, std::string>& params) {
  const std::vector<migrate::ArgRange> args = file.call_args(open);
  for (const auto& [index, type] : params) {
    if (index >= args.size() || args[index].empty()) continue;
    const migrate::ArgRange a = args[index];
    if (file.excluded(a.first) || file.excluded(a.last)) continue;
    const std::string_view original = file.span_text(a.first, a.last);
    if (!rewrite::record::recordable(original)) continue;
    // before the argument's first token and after its last: renames inside it still apply
    if (!file.insert_before(a.first, "((" + type + ")(")) continue;
    file.replace_bytes(file.code(a.last).end, file.code(a.last).end, ")) " + rewrite::record::make(original));
  }
}

}  // namespace

void blas_half_casts_pass(migrate::FileMigration& file, const rules::RuleSet& table, bool old_hipblas) {
  if (file.target().option("blas") != "hipblas") return;
  // The cuBLAS names (decided once per name), in file order.
  for (const std::size_t ci :
       analysis::detail::identifiers_where(file, [](std::string_view name) { return name.starts_with("cublas"); })) {
    if (ci + 1 >= file.code_size() || !file.is(ci + 1, "(") || file.is_member_or_qualified(ci) || file.excluded(ci) ||
        file.touched(ci))
      continue;
    const std::string_view callee = file.text(ci);
    const rules::Rule* r = table.find_identifier(callee);
    if (!r || !r->has_replacement()) continue;
    if (r->availability == rules::Availability::Available) {
      if (const auto it = half_params().find(r->to); it != half_params().end()) {
        cast_arguments(file, ci + 1, it->second);
        file.count_converted("cublas");
      }
      continue;
    }
    // hipblasCgemm_v2 (ROCm 6.0) for an older hipBLAS: its 5.x function, on hipBLAS's complex types
    if (!old_hipblas || !r->to.ends_with("_v2")) continue;
    const std::string base(r->to.substr(0, r->to.size() - 3));
    const auto it = complex_params().find(base);
    if (it == complex_params().end() || !rewrite::record::recordable(callee)) continue;
    if (!file.replace(ci, ci, base + " " + rewrite::record::make(callee))) continue;
    cast_arguments(file, ci + 1, it->second);
    file.count_converted("cublas");
  }
}

}  // namespace ferry::targets::hip
