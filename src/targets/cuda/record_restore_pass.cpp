// What the CUDA -> HIP target could not say in HIP it leaves in a comment at the place, the
// round-trip record (rewrite/roundtrip_record.h states its forms and their restore rules). This
// pass puts the CUDA text back, first, so that CUDA -> HIP -> CUDA gives the original text.
#include <string>
#include <vector>

#include "analysis/wave64_fix.h"
#include "rewrite/roundtrip_record.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {

using migrate::FileMigration;
namespace record = rewrite::record;

void record_restore_pass(FileMigration& file) {
  const auto& toks = file.tokens();
  const std::string_view src = file.source();
  // A dropped duplicate include: `/* ferry-cuda: #include <cuda_runtime_api.h> */` alone at a line start.
  for (std::size_t t = 0; t < toks.size(); ++t) {
    if (toks[t].kind != lex::Kind::BlockComment || (toks[t].begin > 0 && src[toks[t].begin - 1] != '\n')) continue;
    const auto rec = record::parse(src.substr(toks[t].begin, toks[t].end - toks[t].begin));
    if (rec && rec->starts_with("#include") && file.replace_bytes(toks[t].begin, toks[t].end, std::string(*rec)))
      file.count_converted("headers");
  }
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    const std::size_t ti = file.token_index(ci);
    // The first comment after code token `ci` on the same line (whitespace between allowed).
    auto comment_after = [&](std::size_t t) { return record::comment_after(toks, t); };
    if (file.code(ci).kind == lex::Kind::HeaderName) {
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (!rec) continue;
      if (*rec == record::kNone) {  // added by the forward migration: the original did not have it
        // the whole line, from '#' to the newline
        std::uint32_t b = file.code(ci).begin;
        while (b > 0 && src[b - 1] != '\n') --b;
        std::uint32_t e = toks[c].end;
        while (e < src.size() && src[e] != '\n') ++e;
        if (e < src.size()) ++e;
        if (file.replace_bytes(b, e, "")) file.count_converted("headers");
        continue;
      }
      if (!(rec->starts_with('<') || rec->starts_with('"'))) continue;
      if (file.replace_bytes(file.code(ci).begin, toks[c].end, std::string(*rec))) file.count_converted("headers");
      continue;
    }
    if (file.is(ci, "64") || file.is(ci, "6")) {
      // `threadIdx.x / 64 /* ferry-cuda: WARP_SIZE */` (`>> 6 /* ferry-cuda: 5 */`): a warp index
      // of a WMMA component in one-warp-per-wavefront form (docs/wave64.md, WMMA)
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (rec && *rec != record::kNone && (ci > 0 && (file.is(ci - 1, "/") || file.is(ci - 1, ">>"))) &&
          file.replace_bytes(file.code(ci).begin, toks[c].end, std::string(*rec)))
        file.count_converted("device");
      continue;
    }
    if (file.is(ci, ")")) {
      // a launch's block doubled for the same form: `2 * (B) /* ferry-cuda: B */`, `dim3(2 * b.x, b.y,
      // b.z) /* ferry-cuda: b */`, `dim3(2 * dim3(B).x, ...) /* ferry-cuda: B */`
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (!rec) continue;
      const std::uint32_t end = file.code(ci).end;
      for (const std::string& form : analysis::wmma_doubled_block_forms(*rec)) {
        if (form.size() > end || src.substr(end - form.size(), form.size()) != form) continue;
        if (file.replace_bytes(static_cast<std::uint32_t>(end - form.size()), toks[c].end, std::string(*rec)))
          file.count_converted("launch");
        break;
      }
      continue;
    }
    if (file.is(ci, "32")) {
      // `32 /* ferry-cuda: warpSize */`: the wave64 fix's logical warps needed CUDA's 32 there
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (rec && *rec == "warpSize" && file.replace_bytes(file.code(ci).begin, toks[c].end, "warpSize"))
        file.count_converted("device");
      continue;
    }
    if (file.is_identifier(ci) && file.is(ci + 1, "(")) {
      const std::size_t c = comment_after(file.token_index(ci + 1));
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (!rec || !rec->starts_with(file.text(ci).substr(0, 2))) continue;
      // `__shfl(/* ferry-cuda: __shfl_sync(tmask, */ v` : the comment and one space after it
      std::uint32_t e = toks[c].end;
      if (e < src.size() && src[e] == ' ') ++e;
      if (file.replace_bytes(file.code(ci).begin, e, std::string(*rec))) file.count_converted("device");
    }
  }
}

}  // namespace ferry::targets::cuda
