// What HIP -> CUDA could not say in CUDA it leaves in a comment at the place, `/* ferry-hip:
// ORIGINAL */` (rewrite/roundtrip_record.h, namespace to_hip, states the forms). This pass puts the
// HIP text back, first, so that HIP -> CUDA -> HIP gives the original: a CUDA name HIP code held
// for NVIDIA builds (`cudaDeviceGetLimit` under `__HIP_PLATFORM_NVIDIA__`), a rocPRIM functor the
// way there wrote as CUB's (`cuda::std::plus /* ferry-hip: rocprim::plus */`), an include it added.
#include <string>

#include "core/text.h"
#include "lex/ferry_marks.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {

namespace record = rewrite::record;

void hip_record_restore_pass(migrate::FileMigration& file) {
  if (!lex::source_mentions(file, record::to_hip::kMark)) return;
  const auto& toks = file.tokens();
  const std::string_view src = file.source();
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    const auto rec = record::to_hip::after(toks, src, file.token_index(ci));
    if (!rec) continue;
    if (file.code(ci).kind == lex::Kind::HeaderName) {
      // `#include <cuda/std/functional> /* ferry-hip: (none) */`: added on the way there, the line goes
      if (rec->text.starts_with('<') || rec->text.starts_with('"')) {
        // `#include <cuda.h> /* ferry-hip: <hip/hip_runtime.h> */`: the header the HIP had
        if (file.replace_bytes(file.code(ci).begin, toks[rec->token].end, std::string(rec->text)))
          file.count_converted("headers");
        continue;
      }
      if (rec->text != record::kNone) continue;
      std::uint32_t b = file.code(ci).begin;
      while (b > 0 && src[b - 1] != '\n') --b;
      std::uint32_t e = toks[rec->token].end;
      while (e < src.size() && src[e] != '\n') ++e;
      if (e < src.size()) ++e;
      if (file.replace_bytes(b, e, "")) file.count_converted("headers");
      continue;
    }
    if (!file.is_identifier(ci) || !record::is_spelling(rec->text)) continue;
    // the name as written, with its qualifiers (`cuda::std::plus`), and the record
    std::size_t first = ci;
    while (first >= 2 && file.is(first - 1, "::") && file.is_identifier(first - 2)) first -= 2;
    if (first >= 1 && file.is(first - 1, "::")) --first;  // `::cudaFree`
    if (file.replace_bytes(file.code(first).begin, toks[rec->token].end, std::string(rec->text)))
      file.count_converted("runtime");
  }
}

}  // namespace ferry::targets::hip
