#include "targets/hip/passes.h"

namespace ferry::targets::hip {

void inline_asm_pass(migrate::FileMigration& file) {
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci)) continue;
    const std::string_view t = file.text(ci);
    if (t != "asm" && t != "__asm__" && t != "__asm") continue;
    std::size_t open = ci + 1;
    while (file.is(open, "volatile") || file.is(open, "__volatile__") || file.is(open, "goto") ||
           file.is(open, "inline"))
      ++open;
    if (!file.is(open, "(") || file.excluded(ci)) continue;
    std::string body;
    for (const migrate::ArgRange& a : file.call_args(open)) {
      if (a.empty()) continue;
      const lex::Kind k = file.code(a.first).kind;
      if (k == lex::Kind::String || k == lex::Kind::RawString) body = file.text(a.first);
      break;
    }
    const bool ptx = body.find('%') != std::string::npos || body.find('.') != std::string::npos;
    file.count_unconverted("device");
    file.diag(Diag::InlineAsm, ci,
              std::string("inline assembly") + (ptx ? " (PTX)" : "") +
                  " cannot run on AMDGPU; left unchanged" + (body.empty() ? "" : ": " + body),
              "replace it with the CUDA/HIP intrinsic it implements (e.g. __shfl_*, __ballot, "
              "__builtin_amdgcn_* for GCN), or guard it with #ifdef __HIP_PLATFORM_AMD__");
  }
}

}  // namespace ferry::targets::hip
