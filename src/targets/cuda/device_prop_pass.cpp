// hipDeviceProp_t fields that cudaDeviceProp does not have (any more): CUDA 13 removed clockRate,
// memoryClockRate, computeMode, ... (their values stay readable through cudaDeviceGetAttribute);
// some fields are HIP's own (gcnArchName, maxSharedMemoryPerMultiProcessor, ...).
#include <set>
#include <string>

#include <vector>

#include "rules/cuda_version.h"
#include "targets/cuda/compat_header.h"
#include "targets/cuda/device_props.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;
using migrate::npos;

enum class Fix { Attribute, Rename, ArchName, ArchNumber, Zero, Unsupported };
struct Field {
  std::string_view hip;
  Fix fix;
  std::string_view cuda;  // attribute enumerator or new member name
  int removed_in;         // CUDA major that removed it (0: HIP-only field, any version)
};
constexpr Field kHipFields[] = {
    {"cooperativeMultiDeviceLaunch", Fix::Zero, "", 13},
    {"clockInstructionRate", Fix::Attribute, "cudaDevAttrClockRate", 0},
    {"maxSharedMemoryPerMultiProcessor", Fix::Rename, "sharedMemPerMultiprocessor", 0},
    {"gcnArchName", Fix::ArchName, "", 0},
    {"gcnArch", Fix::ArchNumber, "", 0},
    {"isLargeBar", Fix::Unsupported, "", 0},
    {"asicRevision", Fix::Unsupported, "", 0},
    {"hdpMemFlushCntl", Fix::Unsupported, "", 0},
    {"hdpRegFlushCntl", Fix::Unsupported, "", 0},
    {"cooperativeMultiDeviceUnmatchedFunc", Fix::Unsupported, "", 0},
    {"cooperativeMultiDeviceUnmatchedGridDim", Fix::Unsupported, "", 0},
    {"cooperativeMultiDeviceUnmatchedBlockDim", Fix::Unsupported, "", 0},
    {"cooperativeMultiDeviceUnmatchedSharedMem", Fix::Unsupported, "", 0},
};
const Field* find_field(std::string_view name) {
  // Removed in CUDA 13, readable as an attribute (device_props.h, shared with the way back).
  static const auto removed = [] {
    std::vector<Field> v;
    for (const RemovedPropField& r : kRemovedPropFields) v.push_back({r.field, Fix::Attribute, r.attribute, 13});
    return v;
  }();
  for (const Field& f : removed)
    if (f.hip == name) return &f;
  for (const Field& f : kHipFields)
    if (f.hip == name) return &f;
  return nullptr;
}

bool is_prop_type(std::string_view t) {
  return t == "hipDeviceProp_t" || t == "cudaDeviceProp" || t == "hipDeviceProp";
}

// Names declared with a device-properties type in this file: `hipDeviceProp_t props;`,
// `const hipDeviceProp_t& p`, `hipDeviceProp_t* p`, `hipDeviceProp_t props[4]`, `a, b`.
std::set<std::string> prop_variables(const FileMigration& f) {
  std::set<std::string> names;
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is_identifier(ci) || !is_prop_type(f.text(ci))) continue;
    std::size_t k = ci + 1;
    while (k < f.code_size()) {
      while (f.is(k, "const") || f.is(k, "&") || f.is(k, "*") || f.is(k, "&&") || f.is(k, "volatile")) ++k;
      if (!f.is_identifier(k)) break;
      if (f.is(k + 1, "(")) break;  // a function returning properties
      names.emplace(f.text(k));
      ++k;
      if (f.is(k, "[")) k = f.match_bracket(k) == npos ? k : f.match_bracket(k) + 1;
      if (f.is(k, "{")) k = f.match_bracket(k) == npos ? k : f.match_bracket(k) + 1;
      if (!f.is(k, ",")) break;
      ++k;
    }
  }
  return names;
}

}  // namespace

void device_prop_pass(FileMigration& file) {
  // The way back of a round trip: every such field was the CUDA original's own, since the way
  // there writes none of them from CUDA code: a field a CUDA release removed, often under `#if
  // CUDART_VERSION < 13000` (HIP keeps it), or a HIP-only one (`prop.gcnArchName`) in the HIP code
  // a CUDA file holds under `#if defined(USE_HIP)`.
  if (file.project().migrated_by == "hip") return;
  const auto version = rules::parse_cuda_version(file.target().option("cuda-version")).value_or(rules::CudaVersion{});
  std::set<std::string> props;
  bool props_known = false;
  for (std::size_t ci = 2; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !(file.is(ci - 1, ".") || file.is(ci - 1, "->"))) continue;
    const Field* fld = find_field(file.text(ci));
    if (!fld || (fld->removed_in && !version.at_least(fld->removed_in))) continue;
    if (file.excluded(ci) || file.touched(ci)) continue;
    if (!props_known) props = prop_variables(file), props_known = true;
    // The object: `name`, `name[...]`.
    std::size_t first = ci - 2;
    if (file.is(first, "]")) {
      std::size_t open = npos;
      for (std::size_t k = first; k-- > 0;)
        if (file.is(k, "[") && file.match_bracket(k) == first) {
          open = k;
          break;
        }
      if (open == npos || open == 0) continue;
      first = open - 1;
    }
    const bool arrow = file.is(ci - 1, "->");
    const std::string name(file.text(first));
    const std::string field(fld->hip);
    if (!file.is_identifier(first) || !props.contains(name) ||
        (first > 0 && (file.is(first - 1, ".") || file.is(first - 1, "->")))) {
      file.diag(Diag::DevicePropUnknownObject, Severity::Warning, ci,
                "'" + field + "' is a device-properties field that " +
                    (fld->removed_in ? "CUDA " + std::to_string(fld->removed_in) + " removed" : "only HIP has") +
                    ", on an object Ferry cannot see the type of; left unchanged",
                fld->fix == Fix::Attribute
                    ? "read it with cudaDeviceGetAttribute(&v, " + std::string(fld->cuda) + ", device)"
                    : "see docs/targets.md (cuda, device properties)");
      continue;
    }
    const std::string obj = std::string(file.span_text(first, ci - 2));
    const std::string ref = arrow ? "*" + obj : obj;
    std::string repl;
    switch (fld->fix) {
      case Fix::Attribute:
        repl = "ferry::cuda_compat::device_attribute(" + ref + ", " + std::string(fld->cuda) + ")";
        break;
      case Fix::Rename: repl = obj + (arrow ? "->" : ".") + std::string(fld->cuda); break;
      case Fix::ArchName: repl = "ferry::cuda_compat::arch_name(" + ref + ")"; break;
      case Fix::ArchNumber:
        repl = "(" + obj + (arrow ? "->" : ".") + "major * 10 + " + obj + (arrow ? "->" : ".") + "minor)";
        break;
      case Fix::Zero: repl = "0"; break;
      case Fix::Unsupported:
        file.count_unconverted("runtime");
        file.diag(Diag::AmdOnlyDeviceProperty, Severity::Warning, ci,
                  "'" + field + "' is an AMD-only device property with no CUDA counterpart; left unchanged",
                  "remove the use, or guard it with #ifdef __HIP_PLATFORM_AMD__");
        continue;
    }
    if (!file.replace(first, ci, repl)) continue;
    file.count_converted("runtime");
    if (fld->fix == Fix::Attribute || fld->fix == Fix::ArchName) use_compat_header(file);
    const std::string why =
        fld->fix == Fix::Attribute
            ? (fld->removed_in ? "CUDA " + std::to_string(fld->removed_in) + " removed cudaDeviceProp::" + field +
                                     "; the value is read with cudaDeviceGetAttribute(" + std::string(fld->cuda) + ")"
                               : "HIP's " + field + " is the clock rate on NVIDIA (cudaDevAttrClockRate)")
        : fld->fix == Fix::Rename     ? "HIP's " + field + " is cudaDeviceProp::" + std::string(fld->cuda)
        : fld->fix == Fix::ArchName   ? "gcnArchName (the AMD ISA name) becomes the compute capability, \"sm_XY\""
        : fld->fix == Fix::ArchNumber ? "gcnArch (an AMD ISA number) becomes the compute capability major*10+minor"
                                      : "CUDA " + std::to_string(fld->removed_in) +
                                            " removed multi-device cooperative launches: the field reads 0";
    file.diag(Diag::DevicePropRewritten, Severity::Note, ci, why, "");
  }
}

}  // namespace ferry::targets::cuda
