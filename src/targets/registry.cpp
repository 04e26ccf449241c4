// The one place that knows every target: one line per target. Adding a target = a folder under
// targets/ defining its TargetInfo, and one line here.
#include <stdexcept>
#include <string>

#include "targets/cann/cann_target.h"
#include "targets/cuda/cuda_target.h"
#include "targets/hip/hip_target.h"
#include "targets/mindspore/mindspore_target.h"
#include "targets/target.h"
#include "targets/tf_npu/tf_npu_target.h"
#include "targets/torch_npu/torch_npu_target.h"

namespace ferry::targets {
namespace {

const TargetInfo* const kRegistry[] = {
    &hip::kTarget, &cuda::kTarget, &cann::kTarget, &torch_npu::kTarget, &mindspore::kTarget, &tf_npu::kTarget,
};

}  // namespace

std::span<const TargetInfo* const> list_targets() { return kRegistry; }

const TargetInfo* find_target(std::string_view name) {
  for (const TargetInfo* t : kRegistry)
    if (t->name == name) return t;
  return nullptr;
}

std::unique_ptr<Target> make_target(std::string_view name, const Options& options) {
  if (const TargetInfo* t = find_target(name)) return t->make(options);
  std::string known;
  for (const TargetInfo* t : kRegistry) known += (known.empty() ? "" : ", ") + std::string(t->name);
  throw std::invalid_argument("unknown target '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace ferry::targets
