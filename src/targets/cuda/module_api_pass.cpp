// HIP's module API (hipModuleLoad, hipModuleGetFunction, hipModuleLaunchKernel) goes to the
// runtime's library API for CUDA >= 12 (rules/hip2cuda/cuda_versions.tsv): same error type as the
// rest of the runtime, nothing more to link. Code written against the driver API (it initialises
// the driver or manages contexts: hipInit, hipCtxCreate/SetCurrent/..., hipDevicePrimaryCtx*,
// hipDeviceGet, or it was
// CUDA driver code, as the forward migration's record of <cuda.h> says) keeps the driver API.
#include <set>
#include <string>

#include "lex/ferry_marks.h"
#include "rewrite/roundtrip_record.h"
#include "rules/cuda_version.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

struct DriverName {
  std::string_view hip;
  std::string_view cu;
};
// The driver API names the CUDA -> HIP tables map to these HIP names (rules/cuda2hip/driver.tsv).
constexpr DriverName kDriver[] = {
    {"hipModuleLoad", "cuModuleLoad"},
    {"hipModuleLoadData", "cuModuleLoadData"},
    {"hipModuleLoadDataEx", "cuModuleLoadDataEx"},
    {"hipModuleUnload", "cuModuleUnload"},
    {"hipModuleGetFunction", "cuModuleGetFunction"},
    {"hipModuleGetGlobal", "cuModuleGetGlobal"},
    {"hipModuleLaunchKernel", "cuLaunchKernel"},
    {"hipModule_t", "CUmodule"},
    {"hipFunction_t", "CUfunction"},
    {"hipCtxSetCurrent", "cuCtxSetCurrent"},
    {"hipCtxGetCurrent", "cuCtxGetCurrent"},
    {"hipCtxCreate", "cuCtxCreate"},
    {"hipCtxDestroy", "cuCtxDestroy"},
    {"hipCtxSynchronize", "cuCtxSynchronize"},
    {"hipCtxGetDevice", "cuCtxGetDevice"},
    {"hipCtxPushCurrent", "cuCtxPushCurrent"},
    {"hipCtxPopCurrent", "cuCtxPopCurrent"},
    {"hipCtx_t", "CUcontext"},
};
// Results and flags of driver calls: the driver's names only where a driver call is in the same
// statement (`hipError_t e = hipModuleLoad(...)`, `if (hipModuleLaunchKernel(...) != hipSuccess)`).
// Including <cuda.h> is no evidence: a runtime program that includes it for CUDA_VERSION keeps
// cudaError_t, and in a round trip the spelling records (record_restore) say which was which.
constexpr DriverName kDriverResults[] = {
    {"hipError_t", "CUresult"},
    {"hipSuccess", "CUDA_SUCCESS"},
    {"hipDevice_t", "CUdevice"},
    {"hipOccupancyDefault", "CU_OCCUPANCY_DEFAULT"},
    {"hipOccupancyDisableCachingOverride", "CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE"},
};

}  // namespace

bool driver_style(const migrate::FileMigration& f) {
  const std::string_view src = f.source();
  if (rewrite::record::records_header(f.tokens(), src, "cuda.h")) return true;
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is_identifier(ci)) continue;
    const std::string_view t = f.text(ci);
    // Context management or driver initialisation; hipCtxSynchronize/hipCtxGetDevice alone are
    // runtime calls in all but name.
    if (t == "hipInit" || t == "hipDeviceGet" || t == "hipCtxCreate" || t == "hipCtxDestroy" ||
        t == "hipCtxSetCurrent" || t == "hipCtxGetCurrent" || t == "hipCtxPushCurrent" || t == "hipCtxPopCurrent" ||
        t.starts_with("hipDevicePrimaryCtx") || t.starts_with("hipDrv"))
      return true;
  }
  return false;
}

namespace {

// hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, smem, limit[, flags]) has no
// block-size-to-shared-memory callback; CUDA's cuOccupancyMaxPotentialBlockSize takes one before
// smem. A null callback (0) gives CUDA's answer for a fixed smem, which is HIP's.
void occupancy_callback_arg(migrate::FileMigration& file) {
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    const bool plain = file.is(ci, "hipModuleOccupancyMaxPotentialBlockSize");
    if ((!plain && !file.is(ci, "hipModuleOccupancyMaxPotentialBlockSizeWithFlags")) || !file.is(ci + 1, "(") ||
        file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    const std::vector<migrate::ArgRange> args = file.call_args(ci + 1);
    if (args.size() != (plain ? 5u : 6u) || args[3].empty()) continue;
    const std::uint32_t at = file.code(args[3].first).begin;
    if (!file.edits().overlaps(at, at)) file.replace_bytes(at, at, "0, ");
  }
}

// Whether code token `ci`'s statement (between the `;`, `{` or `}` around it) calls the driver: a
// kDriver name, or a name the rules map to a driver function of <cuda.h> (cuOccupancy..., cuInit).
// `vars`: variables that hold driver results (declared `hipError_t NAME = <driver call>`), so a
// later `NAME != hipSuccess` compares with the driver's CUDA_SUCCESS.
bool in_driver_statement(const migrate::FileMigration& f, std::size_t ci, const std::set<std::string_view>& vars) {
  auto boundary = [&](std::size_t k) { return f.is(k, ";") || f.is(k, "{") || f.is(k, "}"); };
  std::size_t a = ci, b = ci;
  while (a > 0 && !boundary(a - 1) && f.code(a - 1).in_directive == f.code(ci).in_directive) --a;
  while (b + 1 < f.code_size() && !boundary(b + 1) && f.code(b + 1).in_directive == f.code(ci).in_directive) ++b;
  for (std::size_t k = a; k <= b; ++k) {
    if (f.is_identifier(k) && vars.contains(f.text(k)) && !f.is_member_or_qualified(k)) return true;
    if (!f.is_identifier(k) || !f.is(k + 1, "(") || f.is_member_or_qualified(k)) continue;
    const std::string_view t = f.text(k);
    for (const DriverName& n : kDriver)
      if (t == n.hip) return true;
    const rules::Rule* r = f.target().rules().find_identifier(t);
    if (r && r->has_replacement() && r->family == "driver" && r->to.size() > 2 && r->to.starts_with("cu") &&
        r->to[2] >= 'A' && r->to[2] <= 'Z')
      return true;
  }
  return false;
}

}  // namespace

// The way back of a round trip: the tree was migrated from CUDA, or the file carries the forward
// migration's records (`/* ferry-cuda: ... */`); the CUDA original's text comes back as it was.
bool from_cuda(const migrate::FileMigration& f) {
  return f.project().migrated_by == "hip" || lex::source_mentions(f, rewrite::record::kMark);
}

// Whether code token `ci` names a driver function: a kDriver name, or a name the rules map to a
// driver function of <cuda.h> (cuOccupancy..., cuInit, cuMemcpyHtoD).
// `module_names`: the kDriver names count (code written against the driver API; elsewhere they
// go to the runtime's library API).
bool driver_function(const migrate::FileMigration& f, std::size_t ci, bool module_names) {
  const std::string_view t = f.text(ci);
  for (const DriverName& n : kDriver)
    if (t == n.hip) return module_names && !t.ends_with("_t");
  const rules::Rule* r = f.target().rules().find_identifier(t);
  return r && r->has_replacement() && r->family == "driver" && r->kind == rules::RuleKind::Func && r->to.size() > 2 &&
         r->to.starts_with("cu") && r->to[2] >= 'A' && r->to[2] <= 'Z';
}

namespace {

// HIP has one error type, so a HIP program checks driver and runtime calls with one helper
// (`checkHipErrors(hipDeviceGet(&d, 0))`, a function taking hipError_t). On CUDA the driver call
// returns CUresult and the helper's parameter is cudaError_t, which nvcc does not convert. A driver
// call that is the first argument of a call to something that is not the driver gets
// `static_cast<cudaError_t>(...)`: CUDA_SUCCESS and cudaSuccess are both 0, and the runtime's codes
// have carried the driver's numbers since CUDA 10.1 for the errors both have. Not in a round trip,
// where the CUDA original's text comes back as it was.
void driver_result_casts(migrate::FileMigration& file, bool driver) {
  if (from_cuda(file)) return;
  for (std::size_t ci = 2; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || !file.is(ci - 1, "(") || !file.is_identifier(ci - 2) ||
        file.excluded(ci) || file.is_member_or_qualified(ci) || file.code(ci).in_directive ||
        !driver_function(file, ci, driver))
      continue;
    const std::string_view callee = file.text(ci - 2);
    if (callee == "if" || callee == "while" || callee == "switch" || callee == "return" || callee == "sizeof" ||
        callee == "decltype" || driver_function(file, ci - 2, true))
      continue;
    const std::size_t close = file.match_bracket(ci + 1);
    if (close == migrate::npos || !(file.is(close + 1, ")") || file.is(close + 1, ","))) continue;
    if (file.edits().overlaps(file.code(ci).begin, file.code(ci).begin) ||
        file.edits().overlaps(file.code(close).end, file.code(close).end))
      continue;
    file.insert_before(ci, "static_cast<cudaError_t>(");
    file.replace_bytes(file.code(close).end, file.code(close).end, ")");
    file.diag(Diag::DriverResultToRuntimeCuda, ci,
              "'" + std::string(file.text(ci)) + "' returns CUresult on CUDA; passed to '" + std::string(callee) +
                  "', which takes HIP's one error type (cudaError_t on CUDA), through static_cast<cudaError_t>",
              "CUDA_SUCCESS and cudaSuccess are both 0 and most error codes agree; give the helper a CUresult "
              "overload (cuGetErrorString) for the driver's own error names");
  }
}

// hipCtxCreate(&ctx, flags, dev) -> cuCtxCreate(&ctx, nullptr, flags, dev): from CUDA 13.0,
// cuCtxCreate is cuCtxCreate_v4, with CUctxCreateParams* before the flags (nullptr: none).
void ctx_create_params(migrate::FileMigration& file, std::size_t ci) {
  if (from_cuda(file) || !file.is(ci + 1, "(")) return;
  const auto version = rules::parse_cuda_version(file.target().option("cuda-version")).value_or(rules::CudaVersion{});
  if (!version.at_least(13)) return;
  const std::vector<migrate::ArgRange> args = file.call_args(ci + 1);
  if (args.size() != 3 || args[1].empty()) return;
  const std::uint32_t at = file.code(args[1].first).begin;
  if (file.edits().overlaps(at, at) || !file.replace_bytes(at, at, "nullptr, ")) return;
  file.diag(Diag::CtxCreateParamsCuda, ci,
            "hipCtxCreate(ctx, flags, device) -> cuCtxCreate(ctx, nullptr, flags, device): from CUDA 13.0 "
            "cuCtxCreate takes CUctxCreateParams* (nullptr: none) before the flags",
            "");
}

// HIP initialises itself on the first call, driver calls included; CUDA's driver API returns
// CUDA_ERROR_NOT_INITIALIZED (3, "initialization error") from cuDeviceGet, cuCtxCreate, ...
// until cuInit ran (a runtime call before it would initialise the driver too, but a program that
// starts with the driver has none). In a driver-style file with no hipInit/cuInit, `cuInit(0);`
// goes before the statement of the first call that needs it (hip-tests' hipDispatchLatency failed
// so on the H100). cuInit is idempotent: a second one elsewhere costs nothing.
void driver_init(migrate::FileMigration& file) {
  if (from_cuda(file)) return;
  static const std::set<std::string_view> kNeedsInit = {"hipDeviceGet",
                                                        "cuDeviceGet",
                                                        "hipDeviceGetName",
                                                        "cuDeviceGetName",
                                                        "hipDeviceTotalMem",
                                                        "cuDeviceTotalMem",
                                                        "hipCtxCreate",
                                                        "cuCtxCreate",
                                                        "hipDevicePrimaryCtxRetain",
                                                        "cuDevicePrimaryCtxRetain",
                                                        "hipModuleLoad",
                                                        "cuModuleLoad",
                                                        "hipModuleLoadData",
                                                        "cuModuleLoadData",
                                                        "hipModuleLoadDataEx",
                                                        "cuModuleLoadDataEx",
                                                        "hipDeviceComputeCapability",
                                                        "cuDeviceComputeCapability"};
  std::size_t first = migrate::npos;
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.excluded(ci)) continue;
    const std::string_view t = file.text(ci);
    if (t == "hipInit" || t == "cuInit") return;
    if (first == migrate::npos && file.is(ci + 1, "(") && !file.is_member_or_qualified(ci) && kNeedsInit.contains(t))
      first = ci;
  }
  if (first == migrate::npos) return;
  // The statement's first token: after the last `;`, `{` or `}` before the call at paren depth 0,
  // inside a function body (brace depth > 0).
  int paren = 0, brace = 0;
  std::size_t start = migrate::npos;
  for (std::size_t ci = 0; ci < first; ++ci) {
    const std::string_view t = file.text(ci);
    if (t == "(" || t == "[") ++paren;
    else if (t == ")" || t == "]") --paren;
    else if (t == "{") ++brace;
    else if (t == "}") --brace;
    if ((t == ";" || t == "{" || t == "}") && paren == 0) start = ci + 1;
  }
  if (start == migrate::npos || start > first || brace <= 0) return;
  if (file.edits().overlaps(file.code(start).begin, file.code(start).begin)) return;
  file.insert_before(start, "cuInit(0);  // ferry: CUDA's driver API needs cuInit before its first call\n" +
                                std::string(file.code(start).col > 1 ? file.code(start).col - 1 : 0, ' '));
  file.diag(Diag::DriverInitAddedCuda, first,
            "'" + std::string(file.text(first)) +
                "' is the file's first driver call and nothing initialises the driver: HIP does it on "
                "the first call, CUDA's driver returns CUDA_ERROR_NOT_INITIALIZED until cuInit; "
                "cuInit(0) added before the statement",
            "");
}

}  // namespace

void module_api_pass(migrate::FileMigration& file) {
  occupancy_callback_arg(file);
  bool checked = false, driver = false;
  std::set<std::string_view> driver_vars;
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci)
    if (file.is(ci, "hipError_t") && file.is_identifier(ci + 1) && file.is(ci + 2, "=") &&
        in_driver_statement(file, ci, driver_vars))
      driver_vars.insert(file.text(ci + 1));
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci)) continue;
    const std::string_view t = file.text(ci);
    const DriverName* d = nullptr;
    for (const DriverName& n : kDriver)
      if (t == n.hip) d = &n;
    bool result = false;
    for (const DriverName& n : kDriverResults)
      if (t == n.hip) d = &n, result = true;
    if (!d) continue;
    if (!checked) driver = driver_style(file), checked = true;
    if (!driver) break;
    if (result && !in_driver_statement(file, ci, driver_vars)) continue;
    // `static_cast<hipError_t>(hipInit(0))`: a driver result turned into the runtime's type on
    // purpose (FRY1254 writes it so); it stays cudaError_t.
    if (result && ci >= 2 && file.is(ci - 1, "<") && file.is(ci - 2, "static_cast")) continue;
    if (file.replace(ci, ci, std::string(d->cu))) {
      file.count_converted("driver");
      if (t == "hipCtxCreate") ctx_create_params(file, ci);
    }
  }
  if (!checked) driver = driver_style(file);
  if (driver) driver_init(file);
  driver_result_casts(file, driver);
}

}  // namespace ferry::targets::cuda
