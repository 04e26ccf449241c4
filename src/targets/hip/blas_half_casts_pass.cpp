// __half pointers in the arguments of hipBLAS's half-precision calls.
//
// cuBLAS declares cublasHgemm and its family on __half*; hipBLAS declares them on hipblasHalf*,
// which is uint16_t (every release through 6.x, unless the build defines HIPBLAS_USE_HIP_HALF),
// and a __half* does not convert to it: "no matching function for call to hipblasHgemm". The
// parameters are data, rules/hipblas_half_params.tsv (made from hipBLAS's header by
// rules/make_hipblas_half_params.py). Each such argument of a call that the tables convert to one
// of those functions gets the parameter's type as a cast, `((const hipblasHalf*)(a))`, with a
// round-trip record of the argument (the "span" form of rewrite/roundtrip_record.h). The bits are
// the same: __half and uint16_t are both the 16-bit IEEE half. Only with --blas=hipblas.
#include <map>
#include <string>
#include <vector>

#include "core/split.h"
#include "rewrite/roundtrip_record.h"
#include "rules/builtin.h"
#include "rules/rule_set.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

// hipBLAS function -> (parameter index -> type)
using HalfParams = std::map<std::string, std::map<std::size_t, std::string>, std::less<>>;

const HalfParams& half_params() {
  static const HalfParams table = [] {
    HalfParams t;
    for (std::string_view row : table_rows(rules::builtin_table("hipblas_half_params.tsv"))) {
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
  }();
  return table;
}

}  // namespace

void blas_half_casts_pass(migrate::FileMigration& file, const rules::RuleSet& table) {
  if (file.target().option("blas") != "hipblas") return;
  const HalfParams& params = half_params();
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.is_member_or_qualified(ci) || file.excluded(ci))
      continue;
    const std::string_view callee = file.text(ci);
    if (!callee.starts_with("cublasH")) continue;
    const rules::Rule* r = table.find_identifier(callee);
    if (!r || !r->has_replacement() || r->availability != rules::Availability::Available) continue;
    const auto it = params.find(r->to);
    if (it == params.end()) continue;
    const std::vector<migrate::ArgRange> args = file.call_args(ci + 1);
    for (const auto& [index, type] : it->second) {
      if (index >= args.size() || args[index].empty()) continue;
      const migrate::ArgRange a = args[index];
      if (file.excluded(a.first) || file.excluded(a.last)) continue;
      const std::string_view original = file.span_text(a.first, a.last);
      if (!rewrite::record::recordable(original)) continue;
      // before the argument's first token and after its last: renames inside it still apply
      if (!file.insert_before(a.first, "((" + type + ")(")) continue;
      file.replace_bytes(file.code(a.last).end, file.code(a.last).end, ")) " + rewrite::record::make(original));
      file.count_converted("cublas");
    }
  }
}

}  // namespace ferry::targets::hip
