// The one place that knows every target. Adding a target: a folder under targets/ and one row.
#include <functional>
#include <stdexcept>

#include "targets/cann/cann_target.h"
#include "targets/cuda/cuda_target.h"
#include "targets/hip/hip_target.h"
#include "targets/torch_npu/torch_npu_target.h"
#include "targets/target.h"

namespace ferry::targets {
namespace {

struct Entry {
  TargetInfo info;
  std::function<std::unique_ptr<Target>(const Options&)> make;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> kEntries = {
      {{"hip", "cuda", "CUDA → HIP for ROCm: AMD GPUs and Hygon DCU (wave64)"}, make_hip_target},
      {{"cuda", "hip", "HIP → CUDA for NVIDIA GPUs (derived from the CUDA → HIP tables)"}, make_cuda_target},
      {{"cann", "cuda", "CUDA → Ascend CANN: AscendCL, HCCL, aclnn GEMM; kernels get Ascend C skeletons"}, make_cann_target},
      {{"torch_npu", "pytorch-cuda", "PyTorch on CUDA → PyTorch on Ascend NPUs (torch_npu): Python scripts"},
       make_torch_npu_target},
  };
  return kEntries;
}

}  // namespace

std::vector<TargetInfo> list_targets() {
  std::vector<TargetInfo> out;
  for (const Entry& e : registry()) out.push_back(e.info);
  return out;
}

std::unique_ptr<Target> make_target(std::string_view name, const Options& options) {
  std::string known;
  for (const Entry& e : registry()) {
    if (e.info.name == name) return e.make(options);
    known += known.empty() ? "" : ", ";
    known += e.info.name;
  }
  throw std::invalid_argument("unknown target '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace ferry::targets
