// The HIP -> CUDA target writes some HIP features as calls into its own header
// ferry/compat_cuda.h (ferry::cuda_compat::..., src/targets/cuda/compat_header.h). Migrating such
// CUDA back to HIP gives the HIP feature again, so HIP -> CUDA -> HIP reaches a fixed point:
//   #include "ferry/compat_cuda.h"                              removed
//   #include "ferry/compat_cuda_vector.h"                       removed (HIP's vector types have the operators)
//   ferry::cuda_compat::fp8_e4m3_fnuz / fp8_e5m2_fnuz           __hip_fp8_e4m3_fnuz / __hip_fp8_e5m2_fnuz
//   ferry::cuda_compat::atomicMax/atomicMin(...)               atomicMax/atomicMin(...)
//   ferry::cuda_compat::lanemask_lt() ...                       __lanemask_lt() ...
//   ferry::cuda_compat::bitextract_u32/_u64(...)               __bitextract_u32/_u64(...)
//   ferry::cuda_compat::module_launch_kernel(...)              hipModuleLaunchKernel(...)
//   ferry::cuda_compat::ext_module_launch_kernel(...)          hipExtModuleLaunchKernel(...)
//   ferry::cuda_compat::device_attribute(p, cudaDevAttrX)      p.field (the field CUDA 13 removed)
//   ferry::cuda_compat::arch_name(p)                           p.gcnArchName
//   ferry::cuda_compat::mem_location(d) in cudaMemPrefetchAsync/cudaMemAdvise   d (flags 0 dropped)
//   #if 1 /* ferry: #ifdef __HIP_PLATFORM_NVIDIA__, ... */, 1 /* ferry: TEST */  the test as written
#include <string>

#include "lex/ferry_marks.h"
#include "rewrite/roundtrip_record.h"
#include "targets/cuda/device_props.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using migrate::FileMigration;
using migrate::npos;

// `ferry :: cuda_compat :: NAME` at ci (an optional leading `::` before it): the index of NAME.
std::size_t compat_name(const FileMigration& f, std::size_t ci) {
  if (!f.is(ci, "ferry") || !f.is(ci + 1, "::") || !f.is(ci + 2, "cuda_compat") || !f.is(ci + 3, "::")) return npos;
  return f.is_identifier(ci + 4) ? ci + 4 : npos;
}

// `p` -> "p.", `*p` -> "p->", anything else -> "(x).".
std::string member_access(const FileMigration& f, const migrate::ArgRange& a) {
  if (a.first == a.last) return std::string(f.text(a.first)) + ".";
  if (f.is(a.first, "*") && a.first + 1 == a.last) return std::string(f.text(a.last)) + "->";
  // props[d], s.props, s->props[i]: a postfix expression needs no parentheses (and the way back
  // recognises the field access only without them).
  bool postfix = f.is_identifier(a.first);
  for (std::size_t k = a.first; postfix && k <= a.last; ++k)
    postfix = f.is_identifier(k) || f.is(k, "[") || f.is(k, "]") || f.is(k, ".") || f.is(k, "->") ||
              f.code(k).kind == lex::Kind::Number;
  if (postfix) return std::string(f.span_text(a.first, a.last)) + ".";
  return "(" + std::string(f.span_text(a.first, a.last)) + ").";
}

}  // namespace

// The cuda target's hip_platform pass wrote HIP's NVIDIA platform tests as their value on NVIDIA,
// with the test beside it: `#if 1 /* ferry: #ifdef __HIP_PLATFORM_NVIDIA__, defined on NVIDIA */`,
// `#elif 1 /* ferry: defined(__HIP_PLATFORM_NVIDIA__) */`. Back on HIP the test is put back, since
// hipcc for AMD leaves the macro undefined and the `1` would take the NVIDIA branch there. The
// same for HIP's version macros, `6 /* ferry: HIP_VERSION_MAJOR */`.
void restore_platform_tests(FileMigration& file) {
  const auto& toks = file.tokens();
  const std::string_view src = file.source();
  constexpr std::string_view kMarker = "/* ferry: ";
  auto nvidia = [](std::string_view t) {
    return t.find("__HIP_PLATFORM_NVIDIA__") != std::string_view::npos ||
           t.find("__HIP_PLATFORM_NVCC__") != std::string_view::npos;
  };
  if (!lex::source_mentions(file, kMarker)) return;  // no test written beside a value
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    if (!file.in_directive(ci) || !file.is(ci, "#")) continue;
    const std::size_t last = file.directive_last(ci);
    if (!(file.is(ci + 1, "if") || file.is(ci + 1, "elif")) || file.excluded(ci)) {
      ci = last;
      continue;
    }
    for (std::size_t k = ci + 2; k <= last && k < file.code_size(); ++k) {
      if (!file.is_number(k) || file.touched(k)) continue;
      const std::size_t c = rewrite::record::comment_after(toks, file.token_index(k));
      if (c == SIZE_MAX) continue;
      const std::string_view comment = src.substr(toks[c].begin, toks[c].end - toks[c].begin);
      if (!comment.starts_with(kMarker) || !comment.ends_with(" */")) continue;
      std::string_view test = comment.substr(kMarker.size(), comment.size() - kMarker.size() - 3);
      // HIP's version macros, written as ROCm 6.2's values (FRY1317): the name comes back
      const bool version = test == "HIP_VERSION_MAJOR" || test == "HIP_VERSION_MINOR" || test == "HIP_VERSION_PATCH" ||
                           test == "HIP_VERSION";
      if (!nvidia(test) && !version) continue;
      if (test.starts_with("#ifdef ") || test.starts_with("#ifndef ")) {  // the whole directive
        const std::size_t comma = test.find(',');
        if (k != ci + 2 || comma == std::string_view::npos || !file.is(ci + 1, "if")) continue;
        test = test.substr(1, comma - 1);  // "ifdef NAME"
        if (file.replace_bytes(file.code(ci + 1).begin, toks[c].end, std::string(test))) file.count_converted("device");
        break;
      }
      if (file.replace_bytes(file.code(k).begin, toks[c].end, std::string(test))) file.count_converted("device");
    }
    ci = last;
  }
}

void cuda_compat_pass(FileMigration& file) {
  restore_platform_tests(file);
  // Neither the compat headers' includes nor `ferry :: cuda_compat :: NAME` in the file.
  if (!file.mentions("cuda_compat") && !lex::source_mentions(file, "ferry/compat_cuda")) return;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.code(ci).kind == lex::Kind::HeaderName &&
        (file.text(ci) == "\"ferry/compat_cuda.h\"" || file.text(ci) == "\"ferry/compat_cuda_vector.h\"")) {
      if (file.remove_include_line(ci)) file.count_converted("headers");
      continue;
    }
    const std::size_t n = compat_name(file, ci);
    if (n == npos || file.excluded(ci) || file.touched(ci)) continue;
    const std::size_t first = ci > 0 && file.is(ci - 1, "::") ? ci - 1 : ci;
    const std::string_view name = file.text(n);
    const bool call = file.is(n + 1, "(");
    const std::size_t close = call ? file.match_bracket(n + 1) : npos;
    const auto args = call ? file.call_args(n + 1) : std::vector<migrate::ArgRange>{};
    bool done = false;
    if (name == "fp8_e4m3_fnuz" || name == "fp8_e5m2_fnuz") {
      done = file.replace(first, n, "__hip_" + std::string(name));
    } else if (name == "atomicMax" || name == "atomicMin" || name == "hipCUDAErrorTohipError" ||
               name == "hipErrorToCudaError") {
      done = file.replace(first, n, std::string(name));
    } else if (name.starts_with("lanemask_") || name == "bitextract_u32" || name == "bitextract_u64") {
      done = file.replace(first, n, "__" + std::string(name));
    } else if (name == "module_launch_kernel") {
      done = file.replace(first, n, "hipModuleLaunchKernel");
    } else if (name == "ext_module_launch_kernel") {
      done = file.replace(first, n, "hipExtModuleLaunchKernel");
    } else if (name == "device_attribute" && close != npos && args.size() == 2 && args[1].first == args[1].last) {
      for (const cuda::RemovedPropField& r : cuda::kRemovedPropFields)
        if (file.text(args[1].first) == r.attribute) {
          done = file.replace(first, close, member_access(file, args[0]) + std::string(r.field));
          break;
        }
    } else if ((name == "solver_lwork_bytes" || name == "solver_lwork_elements") && file.is(n + 1, "<")) {
      // hipSOLVER's sizes in bytes (cuda solver_lwork pass): `solver_lwork_bytes<T>(QUERY, &lwork)`
      // -> QUERY, `solver_lwork_elements<T>(lwork)` -> lwork. Only the wrapper goes; the query's
      // tokens stay for the rules.
      std::size_t gt = n + 2;
      while (gt < file.code_size() && !file.is(gt, ">") && !file.is(gt, ";")) ++gt;
      const std::size_t open = gt + 1;
      if (!file.is(gt, ">") || !file.is(open, "(")) continue;
      const std::size_t end = file.match_bracket(open);
      const auto inner = file.call_args(open);
      if (end == npos) continue;
      if (name == "solver_lwork_bytes" && inner.size() == 2 && !inner[0].empty())
        done =
            file.replace(first, open, "") && file.replace_bytes(file.code(inner[0].last).end, file.code(end).end, "");
      else if (name == "solver_lwork_elements" && inner.size() == 1)
        done = file.replace(first, open, "") && file.replace(end, end, "");
    } else if (name == "arch_name" && close != npos && args.size() == 1) {
      done = file.replace(first, close, member_access(file, args[0]) + "gcnArchName");
    } else if (name == "mem_location" && close != npos && args.size() == 1 && first >= 2) {
      // the argument of cudaMemPrefetchAsync(p, n, HERE, 0, s) or cudaMemAdvise(p, n, a, HERE)
      std::size_t open = npos;
      for (std::size_t k = first; k-- > 0;)
        if (file.is(k, "(") && file.match_bracket(k) != npos && file.match_bracket(k) > close) {
          open = k;
          break;
        }
      if (open == npos || open == 0) continue;
      const bool prefetch = file.is(open - 1, "cudaMemPrefetchAsync"), advise = file.is(open - 1, "cudaMemAdvise");
      if (!prefetch && !advise) continue;
      const auto outer = file.call_args(open);
      const std::size_t at = prefetch ? 2 : 3;
      if (outer.size() <= at || outer[at].first != first) continue;
      // Only the wrapper goes: the argument's tokens stay for the rules to rename
      // (`cudaMemLocationTypeDevice` inside it becomes HIP's name like anywhere else).
      done = file.replace(first, n + 1, "") && file.replace(close, close, "");
      if (done && prefetch && outer.size() >= 4 && outer[3].first == outer[3].last && file.is(outer[3].first, "0"))
        file.replace(outer[3].first - 1, outer[3].last, "");  // `, 0`: the flags HIP does not take
    }
    if (done) file.count_converted("runtime");
  }
}

}  // namespace ferry::targets::hip
