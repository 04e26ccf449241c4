// Inline assembly. PTX that is one of the common idioms with an exact HIP equivalent
// (ptx_idioms.h: `mov.u32 %0, %laneid;` -> `id = __lane_id()`, bfe, prmt, popc, ld.global.nc ...)
// is replaced by it (FRY1311); other PTX (and any other non-AMD assembly) is reported (FRY1003),
// with the reason the table knows. AMD GCN assembly -- code already written for HIP, such as
// ggml's `asm volatile("v_dot2_f32_f16 %0, %1, %2, %0" ...)` in a branch for AMD GPUs -- runs as
// it is and is not reported.
#include <cctype>

#include "analysis/names.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/passes.h"
#include "targets/hip/ptx_idioms.h"

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
  // The asm keywords and Ferry's own PTX calls (the name index: decided once per name).
  for (const std::size_t ci : analysis::detail::identifiers_where(file, [](std::string_view name) {
         return name == "asm" || name == "__asm__" || name == "__asm" || name.starts_with("ferry_ptx_");
       })) {
    const std::string_view t = file.text(ci);
    // A call Ferry wrote for PTX before (a migrated tree migrated again): its header too.
    if (t.starts_with("ferry_ptx_") && file.is(ci + 1, "(") && !file.excluded(ci)) {
      file.require_compat("ptx", std::string(t), ci);
      continue;
    }
    const std::size_t open = asm_open(file, ci);
    if (open == lex::npos || file.excluded(ci)) continue;
    std::string body;
    for (const migrate::ArgRange& a : file.call_args(open)) {
      if (a.empty()) continue;
      const lex::Kind k = file.code(a.first).kind;
      if (k == lex::Kind::String || k == lex::Kind::RawString) body = file.text(a.first);
      break;
    }
    if (is_gcn_asm(body)) continue;  // AMD's own assembly: nothing to port
    const bool ptx = body.find('%') != std::string::npos || body.find('.') != std::string::npos;
    const std::size_t close = file.match_bracket(open);
    std::string why;
    if (close != migrate::npos) {
      if (const std::optional<PtxStatement> st = parse_asm(file, open, close)) {
        const PtxVerdict v = rewrite_ptx(*st);
        // In a #define the statement is the macro's body: rewritten there, as anywhere (the
        // replacement is one line, so the macro's continuation lines inside the span merge).
        if (v.rewrite) {
          // With a round-trip record of the statement, so that the way back writes the PTX again
          // (the "span" form: the parenthesised rewrite and the record become the original; the
          // vector forms are lambdas called in place, so that every rewrite is an expression).
          const std::string_view original = file.span_text(ci, close);
          const bool record = rewrite::record::recordable(original);
          std::string text = record ? "(" + v.rewrite->text + ") " + rewrite::record::make(original) : v.rewrite->text;
          if (file.replace(ci, close, std::move(text))) {
            file.count_converted("device");
            if (v.rewrite->needs_compat) file.require_compat("ptx", std::string(v.rewrite->idiom), ci);
            file.diag(Diag::InlinePtxRewritten, ci,
                      "inline PTX (" + v.rewrite->idiom + ") rewritten to its HIP equivalent: " + v.rewrite->text,
                      "nothing to do");
            continue;
          }
        }
        if (why.empty()) why = v.why;
      }
    }
    file.count_unconverted("device");
    file.diag_span(Diag::InlineAsm, ci, close == migrate::npos ? ci : close,
                   std::string("inline assembly") + (ptx ? " (PTX)" : "") + " cannot run on AMDGPU; left unchanged" +
                       (body.empty() ? "" : ": " + body) + (why.empty() ? "" : " (" + why + ")"),
                   "replace it with the CUDA/HIP intrinsic it implements (e.g. __shfl_*, __ballot, "
                   "__builtin_amdgcn_* for GCN), or guard it with #ifdef __HIP_PLATFORM_AMD__");
  }
}

}  // namespace ferry::targets::hip
