// HIP code that also holds CUDA code (for NVIDIA builds: `cudaDeviceGetLimit(&v,
// cudaLimitStackSize)` under `#ifdef __HIP_PLATFORM_NVIDIA__`, a shim `#define
// hipExternalMemoryHandleType cudaExternalMemoryHandleType`): its CUDA names stay CUDA on the way
// there, and the way back (CUDA -> HIP) would rename them. Each is recorded as it is, `cudaLimitStackSize
// /* ferry-hip: cudaLimitStackSize */` (rewrite/roundtrip_record.h, to_hip spelling form), so that
// HIP -> CUDA -> HIP gives the text back (the hip target's hip_record_restore pass). The mirror of
// the hip target's record_hip_code (CUDA code that holds HIP code). Only in a file this migration
// changed (HIP code), never on the way back of a CUDA -> HIP -> CUDA round trip.
#include <algorithm>
#include <string>
#include <vector>

#include "rewrite/roundtrip_record.h"
#include "rules/rule_set.h"
#include "targets/cuda/passes.h"
#include "targets/hip/pass_util.h"
#include "targets/way_back.h"

namespace ferry::targets::cuda {

namespace {
bool changed_text(migrate::FileMigration& file) {
  const std::string_view src = file.source();
  for (const rewrite::Edit& e : file.edits().edits())
    if (e.replacement != src.substr(e.begin, e.end - e.begin)) return true;
  return false;
}
}  // namespace

std::string added_record(const migrate::FileMigration&) { return " " + std::string(rewrite::record::to_hip::kAdded); }

void hip_record_pass(migrate::FileMigration& file) {
  if (from_cuda(file) || !changed_text(file)) return;
  const auto& toks = file.tokens();
  const std::string_view src = file.source();
  const rules::RuleSet& there = file.target().rules();
  // A HIP runtime header the way back would give as another (`<hip/hip_runtime.h>` became `<cuda.h>`
  // in driver code, `<hip/hip_ext.h>` `<cuda_runtime.h>`): `#include <cuda.h> /* ferry-hip:
  // <hip/hip_runtime.h> */` (header form).
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.code(ci).kind != lex::Kind::HeaderName || file.excluded(ci)) continue;
    const rewrite::Edit* e = file.edits().find(file.code(ci).begin, file.code(ci).end);
    const std::string_view text = file.text(ci);
    if (!e || e->replacement.size() < 2 || e->replacement == text ||
        (e->replacement.front() != '<' && e->replacement.front() != '"') || !rewrite::record::recordable(text))
      continue;
    const std::string_view to = std::string_view(e->replacement).substr(1, e->replacement.size() - 2);
    const std::string_view back = way_back::to_hip_header(to);
    const std::string_view back_to = back.empty() ? to : back;
    // only HIP's own runtime headers: a library's header comes back as its code does (rocBLAS code
    // is hipBLAS code after the round trip, and needs hipBLAS's header)
    if (back_to == text.substr(1, text.size() - 2) || !text.starts_with("<hip/")) continue;
    const std::size_t ti = file.token_index(ci);
    if (rewrite::record::mentioned_after(toks, src, ti) || rewrite::record::to_hip::after(toks, src, ti)) continue;
    file.edits().insert(file.code(ci).end, " " + rewrite::record::to_hip::make(text));
  }
  // The code for NVIDIA builds: the branches of `#if defined(__HIP_PLATFORM_NVIDIA__)`, `#ifdef
  // __HIP_PLATFORM_NVCC__`, ... (an `#else` or `#endif` ends one). Elsewhere a CUDA name HIP code
  // holds is one HIP lacks (kept and reported), which the way back leaves as it is.
  std::vector<bool> nvidia(file.code_size(), false);
  {
    std::vector<bool> open;
    for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
      if (file.is(ci, "#") && file.code(ci).in_directive && ci + 1 < file.code_size()) {
        const std::string_view d = file.text(ci + 1);
        bool test = false;
        for (std::size_t k = ci + 2; k < file.code_size() && file.code(k).in_directive &&
                                     file.code(k).line == file.code(ci).line && !file.is(k, "#");
             ++k)
          if ((file.is(k, "__HIP_PLATFORM_NVIDIA__") || file.is(k, "__HIP_PLATFORM_NVCC__")) &&
              !(file.is(k - 1, "!") || (file.is(k - 1, "(") && k >= 3 && file.is(k - 3, "!"))))
            test = true;
        if (d == "if" || d == "ifdef") open.push_back(test);
        else if (d == "ifndef") open.push_back(false);
        else if (d == "elif" && !open.empty()) open.back() = test;
        else if (d == "else" && !open.empty()) open.back() = false;
        else if (d == "endif" && !open.empty()) open.pop_back();
      }
      nvidia[ci] = std::find(open.begin(), open.end(), true) != open.end();
    }
  }
  enum : unsigned char { kUnknown = 2 };
  std::vector<unsigned char> of_name(file.name_count(), kUnknown);
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci)) continue;
    unsigned char& bit = of_name[file.name_id(ci)];
    if (bit == kUnknown) {
      const std::string_view name = file.text(ci);
      const std::string_view back = way_back::to_hip_identifier(name);
      const rules::Rule* fwd = there.find_identifier(name);
      // the way back renames it; the way there has no rule for it or keeps it
      bit = !back.empty() && back != name && rewrite::record::is_spelling(name) &&
            (!fwd || (fwd->has_replacement() && fwd->to == name));
    }
    if (!bit || !nvidia[ci] || file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci) ||
        file.is(ci + 1, "::") || hip::is_declared_name(file, ci))
      continue;
    const std::size_t ti = file.token_index(ci);
    if (rewrite::record::after(toks, src, ti) || rewrite::record::to_hip::after(toks, src, ti) ||
        rewrite::record::mentioned_after(toks, src, ti))
      continue;
    if (file.edits().find(file.code(ci).end, file.code(ci).end)) continue;  // a pass wrote after it
    file.edits().insert(file.code(ci).end, " " + rewrite::record::to_hip::make(file.text(ci)));
  }
}

}  // namespace ferry::targets::cuda
