// Texture references (`texture<T, dim, mode> tex;` at file scope, bound with hipBindTexture) were
// removed in CUDA 12.0; HIP still has them. The binding calls get FRY1001 from the rule table
// (rules/hip2cuda/cuda_versions.tsv); the declarations get FRY1206 here.
#include <string>

#include "rules/cuda_version.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {

void texture_ref_pass(migrate::FileMigration& file) {
  const auto version = rules::parse_cuda_version(file.target().option("cuda-version")).value_or(rules::CudaVersion{});
  if (!version.at_least(12)) return;
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is(ci, "texture") || !file.is(ci + 1, "<") || file.excluded(ci) || file.is_member_or_qualified(ci))
      continue;
    file.count_unconverted("texture");
    file.diag(Diag::TextureReference, Severity::Warning, ci,
              "texture reference: CUDA removed texture references in 12.0 (writing for CUDA " + version.str() +
                  "); left unchanged",
              "use a texture object: cudaCreateTextureObject(&tex, &resDesc, &texDesc, nullptr), pass the "
              "cudaTextureObject_t to the kernel, read with tex1Dfetch<T>(tex, i) / tex2D<T>(tex, x, y)");
  }
}

}  // namespace ferry::targets::cuda
