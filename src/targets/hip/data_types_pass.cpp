// cudaDataType values in the arguments of library calls.
//
// CUDA has one data-type enum for every library (cudaDataType: CUDA_R_32F, ...). HIP's is
// hipDataType (HIP_R_32F), which the rule tables use everywhere. But hipBLAS before ROCm 6.0 takes
// its own hipblasDatatype_t (HIPBLAS_R_32F), and rocSPARSE its rocsparse_datatype
// (rocsparse_datatype_f32_r); in C++ an enumerator of one enum does not convert to the other. So
// inside the argument list of a cublas* call (hipBLAS older than 6.0) or a cusparse* call
// (--sparse=rocsparse), the CUDA_* names and the cudaDataType(_t) of casts become that library's
// own; under --blas=rocblas the tables give rocBLAS's everywhere, and a cusparse* call gets HIP's
// back. `--hip-data-types` (HIPIFY's option) turns this off: hipDataType everywhere.
// Arguments of calls nested inside are left alone: their parameters are not the library's. A
// cublas* call the release lacks (FRY1301: hipBLAS < 6.0 has no hipblasGemmEx_v2) stays CUDA, and
// so do its arguments' types: the pass never writes a hipBLAS type into a call it did not convert.
#include <array>
#include <string>
#include <string_view>

#include "analysis/names.h"
#include "rules/rule_set.h"
#include "targets/hip/passes.h"
#include "targets/hip/toolchain.h"

namespace ferry::targets::hip {
namespace {

struct TypeName {
  std::string_view cuda;
  std::string_view hipblas;    // hipblasDatatype_t (hipBLAS < 6.0)
  std::string_view rocsparse;  // rocsparse_datatype; empty: none
  std::string_view hip;        // hipDataType
  bool hip_52 = false;         // HIP 5.2's hipDataType has it (the others arrived in 5.7)
};

// hipblasDatatype_t has HIPBLAS_R_16B for bfloat16 (not _16BF); rocsparse_datatype (ROCm 5.3) only
// the four float kinds.
constexpr std::array<TypeName, 18> kNames = {{
    {"CUDA_R_16F", "HIPBLAS_R_16F", "", "HIP_R_16F", true},
    {"CUDA_R_32F", "HIPBLAS_R_32F", "rocsparse_datatype_f32_r", "HIP_R_32F", true},
    {"CUDA_R_64F", "HIPBLAS_R_64F", "rocsparse_datatype_f64_r", "HIP_R_64F", true},
    {"CUDA_C_16F", "HIPBLAS_C_16F", "", "HIP_C_16F", true},
    {"CUDA_C_32F", "HIPBLAS_C_32F", "rocsparse_datatype_f32_c", "HIP_C_32F", true},
    {"CUDA_C_64F", "HIPBLAS_C_64F", "rocsparse_datatype_f64_c", "HIP_C_64F", true},
    {"CUDA_R_8I", "HIPBLAS_R_8I", "", "HIP_R_8I", false},
    {"CUDA_R_8U", "HIPBLAS_R_8U", "", "HIP_R_8U", false},
    {"CUDA_R_32I", "HIPBLAS_R_32I", "", "HIP_R_32I", false},
    {"CUDA_R_32U", "HIPBLAS_R_32U", "", "HIP_R_32U", false},
    {"CUDA_C_8I", "HIPBLAS_C_8I", "", "HIP_C_8I", false},
    {"CUDA_C_8U", "HIPBLAS_C_8U", "", "HIP_C_8U", false},
    {"CUDA_C_32I", "HIPBLAS_C_32I", "", "HIP_C_32I", false},
    {"CUDA_C_32U", "HIPBLAS_C_32U", "", "HIP_C_32U", false},
    {"CUDA_R_16BF", "HIPBLAS_R_16B", "", "HIP_R_16BF", false},
    {"CUDA_C_16BF", "HIPBLAS_C_16B", "", "HIP_C_16BF", false},
    {"cudaDataType", "hipblasDatatype_t", "rocsparse_datatype", "hipDataType", true},  // in casts
    {"cudaDataType_t", "hipblasDatatype_t", "rocsparse_datatype", "hipDataType", true},
}};

enum class Library { None, Hipblas, Rocsparse, Hip };

std::string_view name_for(const TypeName& n, Library lib) {
  switch (lib) {
    case Library::Hipblas: return n.hipblas;
    case Library::Rocsparse: return n.rocsparse;
    case Library::Hip: return n.hip;
    case Library::None: break;
  }
  return {};
}

}  // namespace

void data_types_pass(migrate::FileMigration& file, const Toolchain& tc, const rules::RuleSet& table) {
  const targets::Target& t = file.target();
  const std::string& blas = t.option("blas");
  const std::string& sparse = t.option("sparse");
  const bool hip_data_types = t.flag("hip-data-types");
  const bool hip_57 = tc.hip >= rules::Version{5, 7};
  auto replace_hip = [&](std::size_t k, const TypeName& n, std::string_view family) {
    if ((n.hip_52 || hip_57) && file.replace(k, k, std::string(n.hip))) file.count_converted(family);
  };
  const bool old_hipblas = tc.version_of("hipblas") < rules::Version{6, 0};
  // Only cuBLAS and cuSPARSE calls are read: those names' occurrences (asked once per name).
  for (const std::size_t ci : analysis::detail::identifiers_where(
           file, [](std::string_view name) { return name.starts_with("cublas") || name.starts_with("cusparse"); })) {
    if (!file.is(ci + 1, "(") || file.is_member_or_qualified(ci) || file.excluded(ci)) continue;
    const std::string_view callee = file.text(ci);
    Library lib = Library::None;
    if (callee.starts_with("cublasLt")) lib = Library::None;  // hipBLASLt takes hipDataType
    else if (callee.starts_with("cublas") && blas == "hipblas" && old_hipblas && !hip_data_types)
      lib = Library::Hipblas;
    else if (callee.starts_with("cusparse"))
      lib = sparse == "rocsparse" ? Library::Rocsparse : blas == "rocblas" ? Library::Hip : Library::None;
    if (lib == Library::None) continue;
    if (lib == Library::Hipblas) {
      const rules::Rule* r = table.find_identifier(callee);
      if (!r || !r->has_replacement() || r->availability != rules::Availability::Available) continue;
    }
    const std::string_view family = lib == Library::Hipblas ? "cublas" : "cusparse";
    const std::size_t open = ci + 1;
    const std::size_t close = file.match_bracket(open);
    if (close == migrate::npos) continue;
    for (std::size_t k = open + 1; k < close; ++k) {
      if (file.is(k, "(") && (file.is_identifier(k - 1) || file.is(k - 1, ">"))) {
        const std::size_t end = file.match_bracket(k);  // a nested call: not this library's arguments
        if (end == migrate::npos || end > close) break;
        k = end;
        continue;
      }
      if (!file.is_identifier(k) || file.excluded(k) || file.touched(k) || file.is_member_or_qualified(k)) continue;
      for (const TypeName& n : kNames) {
        if (file.text(k) != n.cuda) continue;
        if (lib == Library::Hip) replace_hip(k, n, family);
        else if (const std::string_view to = name_for(n, lib); !to.empty() && file.replace(k, k, std::string(to)))
          file.count_converted(family);  // no such type in the library: the tables' name, and the compiler, say so
        break;
      }
    }
  }
  // --hip-data-types: hipDataType in cuBLAS calls too, as the tables give it; only --blas=rocblas's
  // table says otherwise (rocblas_datatype), so there every name left is made HIP's. rocSPARSE
  // calls keep rocsparse_datatype (claimed above): no rocSPARSE takes hipDataType.
  if (!hip_data_types || blas != "rocblas") return;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci)) continue;
    for (const TypeName& n : kNames)
      if (file.text(ci) == n.cuda) {
        replace_hip(ci, n, "cublas");
        break;
      }
  }
}

}  // namespace ferry::targets::hip
