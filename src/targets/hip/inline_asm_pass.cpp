// Inline assembly cannot be translated: PTX (and any other non-AMD assembly) is reported
// (FRY1003). AMD GCN assembly -- code already written for HIP, such as ggml's
// `asm volatile("v_dot2_f32_f16 %0, %1, %2, %0" ...)` in a branch for AMD GPUs -- runs as it is
// and is not reported.
#include <cctype>

#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

// True when the assembly string's first mnemonic is GCN-shaped: `v_`, `s_`, `ds_`, `buffer_`,
// `global_`, `flat_`, `scratch_`, `image_`, `tbuffer_` or `exp` followed by lower-case letters,
// digits and underscores, and no '.' (PTX mnemonics carry dotted suffixes: `mov.u32`).
bool is_gcn_asm(std::string_view lit) {
  std::size_t q = lit.find('"');
  if (q == std::string_view::npos) return false;
  std::string_view b = lit.substr(q + 1);
  // Leading blanks and the escapes \t, \n.
  while (!b.empty()) {
    if (b.front() == ' ') b.remove_prefix(1);
    else if (b.size() >= 2 && b[0] == '\\' && (b[1] == 't' || b[1] == 'n')) b.remove_prefix(2);
    else break;
  }
  std::size_t n = 0;
  auto word_char = [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  };
  while (n < b.size() && word_char(b[n])) ++n;
  if (n == 0 || (n < b.size() && b[n] == '.')) return false;
  const std::string_view word = b.substr(0, n);
  static constexpr std::string_view kPrefixes[] = {"v_",    "s_",       "ds_",    "buffer_", "global_",
                                                   "flat_", "scratch_", "image_", "tbuffer_"};
  for (std::string_view p : kPrefixes)
    if (word.starts_with(p) && word.size() > p.size()) return true;
  return word == "exp";
}

}  // namespace

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
    if (is_gcn_asm(body)) continue;  // AMD's own assembly: nothing to port
    const bool ptx = body.find('%') != std::string::npos || body.find('.') != std::string::npos;
    file.count_unconverted("device");
    const std::size_t close = file.match_bracket(open);
    file.diag_span(Diag::InlineAsm, ci, close == migrate::npos ? ci : close,
                   std::string("inline assembly") + (ptx ? " (PTX)" : "") + " cannot run on AMDGPU; left unchanged" +
                       (body.empty() ? "" : ": " + body),
                   "replace it with the CUDA/HIP intrinsic it implements (e.g. __shfl_*, __ballot, "
                   "__builtin_amdgcn_* for GCN), or guard it with #ifdef __HIP_PLATFORM_AMD__");
  }
}

}  // namespace ferry::targets::hip
