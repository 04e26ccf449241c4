// CUDA's virtual memory management (cuMemCreate, cuMemMap, cuMemSetAccess, cuMemAddressReserve...)
// is driver API only; HIP spells the structs and enums it takes like the runtime's memory-pool ones
// (hipMemAccessDesc, hipMemLocationTypeDevice, hipMemAllocationTypePinned), and the reverse table
// sends those to the runtime (cudaMemAccessDesc), whose types the driver calls do not take
// ("argument of type cudaMemAccessDesc * is incompatible with const CUmemAccessDesc *"). In a file
// that calls the driver-only VMM API and not the memory-pool API, they take the driver's spelling
// (CUmemAccessDesc, CU_MEM_LOCATION_TYPE_DEVICE), read from the CUDA -> HIP driver table. A file
// that uses both APIs keeps the runtime's spelling (a structure may serve either).
#include <map>
#include <string>

#include "rules/builtin.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

// HIP names of the VMM structs and enums -> the driver's spelling (rules/cuda2hip/driver.tsv,
// supported rows; `CUmemAccessDesc` over its `CUmemAccessDesc_st` tag).
const std::map<std::string, std::string, std::less<>>& driver_spellings() {
  static const std::map<std::string, std::string, std::less<>> names = [] {
    constexpr std::string_view kShared[] = {"hipMemAccess", "hipMemLocation", "hipMemAllocationType",
                                            "hipMemHandleType", "hipMemAllocationHandleType"};
    rules::RuleSet forward;
    rules::load_builtin(forward, "cuda2hip/driver.tsv");
    std::map<std::string, std::string, std::less<>> out;
    for (const auto& r : forward.all()) {
      if (r->status != rules::Status::Supported || !r->has_replacement() || !r->from.starts_with("CU") ||
          (r->kind != rules::RuleKind::Type && r->kind != rules::RuleKind::Enum))
        continue;
      bool shared = false;
      for (std::string_view p : kShared) shared = shared || r->to.starts_with(p);
      if (!shared) continue;
      auto tag = [](std::string_view n) { return n.ends_with("_st") || n.ends_with("_enum") || n.ends_with("_v1"); };
      const auto it = out.find(r->to);
      if (it == out.end() || (tag(it->second) && !tag(r->from))) out[std::string(r->to)] = r->from;
    }
    return out;
  }();
  return names;
}

}  // namespace

void vmm_pass(migrate::FileMigration& file) {
  const rules::RuleSet& rules = file.target().rules();
  bool vmm = false;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.excluded(ci)) continue;
    const std::string_view t = file.text(ci);
    if (t.starts_with("hipMemPool")) return;  // the memory-pool API takes the runtime's structures
    if (!vmm && t.starts_with("hipMem"))
      if (const rules::Rule* r = rules.find_identifier(t); r && r->family == "driver" && r->to.starts_with("cuMem"))
        vmm = true;
  }
  if (!vmm) return;
  const auto& spellings = driver_spellings();
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci) ||
        file.code(ci).in_directive)
      continue;
    const auto it = spellings.find(file.text(ci));
    if (it != spellings.end() && file.replace(ci, ci, it->second)) file.count_converted("driver");
  }
}

}  // namespace ferry::targets::cuda
