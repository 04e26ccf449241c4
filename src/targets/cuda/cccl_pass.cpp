// CCCL 3.0 (CUDA 13) removed names hipCUB and rocThrust still have: CUB's operator functors and
// fancy iterators, thrust::identity, thrust::unary_function/binary_function.
#include <string>
#include <vector>

#include "analysis/tokens.h"
#include "rules/cuda_version.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;
using migrate::npos;

struct Replacement {
  std::string_view hip;     // hipcub::NAME
  std::string_view cuda;    // what it becomes
  std::string_view header;  // included for it ("" when CUB's headers bring it)
  bool drop_template_args;  // thrust::identity<T> -> cuda::std::identity
};
constexpr Replacement kHipcub[] = {
    {"Sum", "cuda::std::plus<>", "cuda/std/functional", false},
    {"Max", "cuda::maximum<>", "cuda/functional", false},
    {"Min", "cuda::minimum<>", "cuda/functional", false},
    {"Equality", "cuda::std::equal_to<>", "cuda/std/functional", false},
    {"Inequality", "cuda::std::not_equal_to<>", "cuda/std/functional", false},
    {"Difference", "cuda::std::minus<>", "cuda/std/functional", false},
    {"Division", "cuda::std::divides<>", "cuda/std/functional", false},
    {"CountingInputIterator", "thrust::counting_iterator", "thrust/iterator/counting_iterator.h", false},
    {"ConstantInputIterator", "thrust::constant_iterator", "thrust/iterator/constant_iterator.h", false},
    {"DiscardOutputIterator", "thrust::discard_iterator", "thrust/iterator/discard_iterator.h", false},
};

void include_once(FileMigration& f, std::vector<std::string>& added, std::string_view header) {
  if (header.empty()) return;
  const std::string h(header);
  for (const std::string& a : added)
    if (a == h) return;
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (f.code(ci).kind != lex::Kind::HeaderName) continue;
    const std::string_view path = f.text(ci).substr(1, f.text(ci).size() - 2);
    const rules::Rule* r = f.target().rules().find_header(path);
    if (path == h || (r && r->to == h)) return;  // there already, or will be once the rules ran
  }
  added.push_back(h);
  f.insert_line_at_top("#include <" + h + ">\n");
}

// `: public thrust::binary_function<A, B, R>` (or unary_function) in a class head: the base is gone
// in CCCL 3.0 and gave nothing but three typedefs.
void drop_function_bases(FileMigration& f) {
  for (std::size_t ci = 0; ci + 1 < f.code_size(); ++ci) {
    if (!(f.is(ci, "struct") || f.is(ci, "class")) || f.excluded(ci)) continue;
    std::size_t colon = ci + 1;
    while (colon < f.code_size() && f.is_identifier(colon)) ++colon;  // name (and final)
    if (!f.is(colon, ":")) continue;
    std::size_t brace = colon + 1;
    while (brace < f.code_size() && !f.is(brace, "{") && !f.is(brace, ";")) ++brace;
    if (!f.is(brace, "{")) continue;
    const auto bases = analysis::split_top_level(f, colon + 1, brace - 1);
    std::vector<bool> drop(bases.size(), false);
    std::size_t dropped = 0;
    for (std::size_t b = 0; b < bases.size(); ++b) {
      for (std::size_t k = bases[b].first; k + 2 <= bases[b].last; ++k)
        if (f.is(k, "thrust") && f.is(k + 1, "::") &&
            (f.is(k + 2, "binary_function") || f.is(k + 2, "unary_function"))) {
          drop[b] = true;
          ++dropped;
          break;
        }
    }
    if (dropped == 0) continue;
    bool ok = true;
    if (dropped == bases.size()) {
      ok = f.replace_bytes(f.code(colon - 1).end, f.code(brace).begin, " ");  // `struct s {`
    } else {
      for (std::size_t b = 0; b < bases.size() && ok; ++b) {
        if (!drop[b]) continue;
        // the piece and the comma before it (or after it, for the first base)
        const std::size_t first = b > 0 ? bases[b].first - 1 : bases[b].first;
        const std::size_t last = b > 0 ? bases[b].last : bases[b].last + 1;
        ok = f.replace(first, last, "");
      }
    }
    if (!ok) continue;
    f.count_converted("thrust");
    f.diag(Diag::CcclRemovedApi, Severity::Note, colon,
           "thrust::unary_function/binary_function base removed: CCCL 3.0 (CUDA 13) dropped them; they only "
           "defined argument_type/result_type",
           "define those typedefs in the class if code still reads them");
  }
}

}  // namespace

void cccl_pass(FileMigration& file) {
  const auto version = rules::parse_cuda_version(file.target().option("cuda-version")).value_or(rules::CudaVersion{});
  if (!version.at_least(13)) return;
  // The way back of a round trip: the CUDA original's names (cub::Sum, thrust::identity) are its
  // own, written for the CCCL it built with.
  if (file.project().migrated_by == "hip") return;
  std::vector<std::string> added;
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    const bool hipcub = file.is(ci, "hipcub") && file.is(ci + 1, "::");
    const bool thrust = file.is(ci, "thrust") && file.is(ci + 1, "::");
    if (!(hipcub || thrust) || file.excluded(ci) || file.touched(ci)) continue;
    if (ci > 0 && (file.is(ci - 1, ".") || file.is(ci - 1, "->"))) continue;
    const std::size_t first = ci > 0 && file.is(ci - 1, "::") && !(ci > 1 && file.is_identifier(ci - 2)) ? ci - 1 : ci;
    const std::string_view name = file.text(ci + 2);
    if (thrust && name == "identity") {
      std::size_t last = ci + 2;
      if (file.is(last + 1, "<")) {
        const std::size_t close = analysis::angle_close(file, last + 1);
        if (close == npos) continue;
        last = close;
      }
      if (!file.replace(first, last, "cuda::std::identity")) continue;
      include_once(file, added, "cuda/std/functional");
      file.count_converted("thrust");
      file.diag(Diag::CcclRemovedApi, Severity::Note, ci,
                "thrust::identity -> cuda::std::identity: CCCL 3.0 (CUDA 13) removed thrust::identity", "");
      continue;
    }
    if (!hipcub) continue;
    if (name == "TransformInputIterator") {
      // cub::TransformInputIterator<Value, Op, It[, Offset]> -> thrust::transform_iterator<Op, It, Value>
      if (!file.is(ci + 3, "<")) continue;
      const std::size_t close = analysis::angle_close(file, ci + 3);
      if (close == npos) continue;
      const auto args = analysis::split_top_level(file, ci + 4, close - 1);
      if (args.size() < 3) continue;
      auto text = [&](std::size_t k) { return std::string(file.span_text(args[k].first, args[k].last)); };
      if (!file.replace(first, close, "thrust::transform_iterator<" + text(1) + ", " + text(2) + ", " + text(0) + ">"))
        continue;
      include_once(file, added, "thrust/iterator/transform_iterator.h");
      file.count_converted("cub");
      file.diag(Diag::CcclRemovedApi, Severity::Note, ci,
                "hipcub::TransformInputIterator<V, Op, It> -> thrust::transform_iterator<Op, It, V>: CCCL 3.0 "
                "(CUDA 13) removed CUB's iterators",
                "");
      continue;
    }
    for (const Replacement& r : kHipcub) {
      if (name != r.hip) continue;
      if (!file.replace(first, ci + 2, std::string(r.cuda))) break;
      include_once(file, added, r.header);
      file.count_converted("cub");
      file.diag(Diag::CcclRemovedApi, Severity::Note, ci,
                "hipcub::" + std::string(r.hip) + " -> " + std::string(r.cuda) + ": CCCL 3.0 (CUDA 13) removed CUB's " +
                    (std::string(r.cuda).starts_with("thrust") ? "iterators" : "operator functors"),
                "");
      break;
    }
  }
  drop_function_bases(file);
}

}  // namespace ferry::targets::cuda
