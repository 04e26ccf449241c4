// Semantic passes of the CUDA → HIP target. Each pass is one function over a FileMigration,
// lives in its own file and has golden tests under tests/golden/hip-<pass>-*/.
// Order: HipTarget::run_passes in hip_target.cpp is the one list, each call with the reason for its
// place (not repeated here, where it went stale); edits of an earlier pass win over later ones and
// over the rule tables.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/wave64_fix.h"
#include "migrate/file_migration.h"
#include "targets/hip/hip_provided.h"

namespace ferry::targets {
class UnmappedNames;
}

namespace ferry::targets::hip {

// Ferry's own HIP -> CUDA constructs (ferry::cuda_compat::..., ferry/compat_cuda.h) back to the
// HIP features they stand for, so HIP -> CUDA -> HIP reaches a fixed point.
void cuda_compat_pass(migrate::FileMigration& file);

// What HIP -> CUDA recorded in `/* ferry-hip: ... */` comments (rewrite/roundtrip_record.h,
// to_hip): put back first, so HIP -> CUDA -> HIP gives the HIP text.
void hip_record_restore_pass(migrate::FileMigration& file);

// Includes whose CUDA header the HIP -> CUDA way back would not choose (<cuda.h>,
// <cuda/std/type_traits>, ...) get `/* ferry-cuda: <original> */` after the HIP header, so
// CUDA -> HIP -> CUDA restores them (the cuda target's record_restore pass).
void cuda_record_pass(migrate::FileMigration& file);
// After the rules (the target's finish_file): a name the rules renamed many-to-one (CUresult and
// cudaError_t both to hipError_t, cuDriverGetVersion and cudaDriverGetVersion both to
// hipDriverGetVersion) whose CUDA spelling the way back would not choose gets a spelling record,
// `hipError_t /* ferry-cuda: CUresult */` (rewrite/roundtrip_record.h).
void record_spellings(migrate::FileMigration& file);

// CUDA WMMA -> rocWMMA: `using namespace nvcuda;` + `wmma::`, TF32 and bf16 element types,
// names rocWMMA lacks and fragment shapes it has no block for on gfx908/gfx90a (FRY1401, FRY4109;
// rules/cuda2hip/wmma.tsv, rules/rocwmma_blocks.tsv). `facts`: the file's, shared with hazard_pass.
void wmma_pass(migrate::FileMigration& file, const analysis::FileFactsSlot& facts);

// Inline PTX (`asm(...)`, `asm volatile(...)`, `__asm__`) has no AMDGPU meaning: FRY1003.
void inline_asm_pass(migrate::FileMigration& file);

// Every .cu file, and other files that use the CUDA kernel language or runtime, that never
// includes a runtime header (nvcc includes it implicitly; clang -x hip does not) gets
// `#include <hip/hip_runtime.h>`; a HIP header that
// needs the runtime first (hip_cooperative_groups.h, hip_fp16.h...) gets it moved above it.
// Runs before the rules, so the include line it moves is its own.
void runtime_header_pass(migrate::FileMigration& file);

// CUDA 9 warp intrinsics (__shfl*_sync, __ballot_sync, __any/__all_sync, __activemask,
// __syncwarp, __match_*, __reduce_*_sync) → HIP 5.2 forms that are right on 64-lane wavefronts;
// FRY2101 (mask not full), FRY2102 (ballot in 32 bits), FRY2103 (32-bit bit function of a
// ballot), FRY1101/FRY1102 (__match_*/__reduce_* unsupported).
void warp_intrinsics_pass(migrate::FileMigration& file);

// The wave64 lane-math fixes planned for the project (ProjectContext::wave64_fixes): applies this
// file's edits first, so they own their tokens; returns the file's plan (null if none) for the
// hazard diagnostics. wave64_scan is the project-wide half (a pre-pass).
const analysis::Wave64FilePlan* wave64_fix_pass(migrate::FileMigration& file);
// The file's facts as the hazard checks compute them, kept from planning (nullopt: compute them),
// taken from the plan: a second migration of the same file computes them.
std::optional<analysis::FileFacts> take_planned_facts(const migrate::FileMigration& file);
// Plans the fixes over the project (ProjectContext::wave64_fixes); `target` and `options` outlive it.
[[nodiscard]] std::unique_ptr<ProjectScan> wave64_scan(const Target& target, const Options& options);
// After the passes: the warp pass's FRY2102/FRY2103 on variables and calls the fixer widened
// become notes.
void mark_widened_ballots(migrate::FileMigration& file, const analysis::Wave64FilePlan& plan);

// For a release where warpSize is a runtime value (ROCm 7.0 on): FRY2301 at each use of warpSize
// where C++ needs a constant (array bound, template argument, constexpr, static_assert, case,
// enum, __launch_bounds__). Does nothing when `warp_size_constexpr`.
void warp_size_pass(migrate::FileMigration& file, bool warp_size_constexpr);
// CUDA 13's cudaMemLocation arguments of cudaMemPrefetchAsync / cudaMemAdvise → HIP's device
// id (FRY4104), or FRY4105 when the location cannot be read; CUDA 13's graph edge-data arguments
// dropped when null (FRY4112) or left (FRY4113); other argument-level differences
// (call_args_pass.cpp).
void call_args_pass(migrate::FileMigration& file);

// What nvcc accepts and clang's C++17 rejects: the `register` storage class is dropped
// (FRY5202), outside C files and explicit register variables.
void dialect_pass(migrate::FileMigration& file);

// Under --rewrite-strings: API names the rules rename, inside string literals (strings_pass.cpp).
void strings_pass(migrate::FileMigration& file);

// CUDA dynamic parallelism: kernel launches and runtime API calls inside __global__ / __device__
// functions, which HIP cannot compile (FRY1402; diagnostics only).
// `facts`: the file's (their functions), shared with wmma_pass and hazard_pass.
void dynamic_parallelism_pass(migrate::FileMigration& file, const analysis::FileFactsSlot& facts);

// Under --launch=ggl: `k<<<g, b, shm, s>>>(args)` → `hipLaunchKernelGGL(k, g, b, shm, s, args)`.
void launch_pass(migrate::FileMigration& file);

// cuBLAS enumerators (CUBLAS_FILL_MODE_*, CUBLAS_OP_*, CUBLAS_SIDE_*) and enum types in the
// arguments of a cusolverDn*/cusolverSp* call → hipSOLVER's HIPSOLVER_* names (the rule tables make
// them HIPBLAS_* everywhere else). A variable of a cuBLAS enum type passed whole to one gets a cast
// to hipSOLVER's type (FRY1312) where that type differs (`old_hipsolver`: before ROCm 6.0; rocBLAS's
// enums always); FRY4102 where the cast cannot be written.
void solver_args_pass(migrate::FileMigration& file, bool old_hipsolver);

// User definitions whose signature HIP's headers already define (rules/hip_provided.tsv):
// wrapped in `#if !defined(__HIP_PLATFORM_AMD__)` ... `#endif`, FRY4103 at each. Reads the file's
// definition_scan (hip_provided.h), shared with same_signature_pass and the name-clash pre-pass.
void hip_provided_pass(migrate::FileMigration& file, const HipProvidedTable& table);

// Function definitions whose parameter types become identical when the rules rename them
// (`f(cudaError_t)` and `f(CUresult)` -> `f(hipError_t)`): the first defines a marker macro after
// itself, the later ones are compiled only without it (`#if !defined(FERRY_HAVE_...)`), FRY4107.
void same_signature_pass(migrate::FileMigration& file);

// thread_block_tile::meta_group_rank() / meta_group_size() (HIP: ROCm 5.7) on a tile the function
// makes of a thread block: `(cta.thread_rank() / (N))`, `((cta.size() + (N) - 1) / (N))`. The hip
// target runs it for releases that lack them.
void tile_meta_pass(migrate::FileMigration& file);

// Struct members a HIP release lacks (rules/hip_members.tsv: cudaDeviceProp members hipDeviceProp_t
// has only from ROCm 6.0, CUmemAllocationProp's allocFlags before ROCm 5.3), read on a variable the
// file declares with the struct's type (CUDA's or HIP's spelling): through the device attribute,
// from compat header device_prop.h (`ferry_device_attribute(prop, hipDeviceAttributeAsyncEngineCount)`),
// or FRY1301 where there is no attribute or the member is written.
struct DevicePropMember {
  std::string type;                                 // HIP's struct, hipDeviceProp_t
  std::vector<std::string> type_names;              // its spellings in code: HIP's and CUDA's (cudaDeviceProp)
  std::string member, since, attribute, cuda_type;  // attribute empty: none in the release
};
void device_prop_pass(migrate::FileMigration& file, const std::vector<DevicePropMember>& members,
                      std::string_view release);

// CUDA's integer handles whose HIP types are pointers (CUdeviceptr -> hipDeviceptr_t, a void*;
// cudaTextureObject_t / CUtexObject and cudaSurfaceObject_t / CUsurfObject -> hipTextureObject_t,
// hipSurfaceObject_t): the integer uses of names the translation unit declares with one
// (ProjectContext::integer_handle_names, filled by deviceptr_scan, a pre-pass)
// are rewritten — `d + n` -> `(hipDeviceptr_t)((char*)d + n)` (a CUdeviceptr is an address in
// bytes), `t >> 32` -> `(uintptr_t)t >> 32`, `d = n` -> `d = (hipDeviceptr_t)(uintptr_t)(n)`,
// `d += n`, an integer returned as a handle, printf arguments — FRY4110; FRY4111 where the form
// cannot be proved (deviceptr_pass.cpp).
[[nodiscard]] std::unique_ptr<ProjectScan> deviceptr_scan();
// A tree header that stands in for cuda.h (declares at least 50 names the rules map, half of its
// declarations): FRY1410 on it and on the #include lines that name it (stand_in_pass.cpp).
[[nodiscard]] std::unique_ptr<ProjectScan> stand_in_scan(const rules::RuleSet& rules);  // a pre-pass
void stand_in_pass(migrate::FileMigration& file, const rules::RuleSet& rules);
// `tile.shfl_xor(v, m)` with `v` declared as a CUDA vector type (HIP's tile shuffles take scalars
// only) -> `ferry_tile_shfl_xor(tile, v, m)` from the compat header tile_shfl.h.
void tile_shuffle_pass(migrate::FileMigration& file);
// `facts`: the file's (their functions), shared with wmma_pass and hazard_pass.
void deviceptr_pass(migrate::FileMigration& file, const analysis::FileFactsSlot& facts);

// HIP type name -> the elaborated keywords that cannot precede it ("struct,union,enum" for
// hipGraphicsResource, a typedef of struct _hipGraphicsResource): embedded rules/hip_typedef_tags.tsv.
using HipTypedefTags = std::unordered_map<std::string, std::string>;
[[nodiscard]] HipTypedefTags load_hip_typedef_tags();
// `struct cudaGraphicsResource *` -> `hipGraphicsResource *`: drops an elaborated keyword the
// HIP name cannot take (elaborated_type_pass.cpp).
void elaborated_type_pass(migrate::FileMigration& file, const HipTypedefTags& table);

// A file that calls an unqualified min() or max() gets ferry/compat/minmax.h when the release
// lacks CUDA's unsigned/64-bit/mixed overloads (HIP 5.2 and earlier; minmax_pass.cpp).
void minmax_pass(migrate::FileMigration& file, bool release_lacks_minmax);
// CUDA's atomicAdd on __half / __half2, which no HIP release has: files that call atomicAdd and name
// a half type include ferry/compat/fp16_atomic.h (fp16_atomic_pass.cpp).
void fp16_atomic_pass(migrate::FileMigration& file);
// CUDA's atomicMin/atomicMax on long long, which HIP has from ROCm 5.7: for an older release, files
// that call them and name `long long` include ferry/compat/atomic64.h (overload_compat_pass.cpp).
void atomic64_pass(migrate::FileMigration& file, bool release_lacks);
// CUDA's warp shuffles of __half/__half2, which HIP 5.2 lacks: files that call a shuffle and name a
// half type include ferry/compat/fp16_shfl.h (overload_compat_pass.cpp).
void fp16_shfl_pass(migrate::FileMigration& file);
// A file that uses half/half2/__half/__half2 as a type and gets no fp16 header (itself or through
// the tree's headers it includes) gets <hip/hip_fp16.h> (fp16_header_pass.cpp, FRY1310).
void fp16_header_pass(migrate::FileMigration& file);

// cudaDataType values (CUDA_R_32F, casts to cudaDataType) in the arguments of cublas* calls for
// hipBLAS < ROCm 6.0 (hipblasDatatype_t: HIPBLAS_R_32F) and of cusparse* calls under
// --sparse=rocsparse (rocsparse_datatype_f32_r), or back to hipDataType in cusparse* calls under
// --blas=rocblas; --hip-data-types: hipDataType everywhere (HIPIFY's --use-hip-data-types).
// Only in cublas* calls the release has: a call left unconverted (FRY1301) keeps its types.
struct Toolchain;
void data_types_pass(migrate::FileMigration& file, const Toolchain& tc, const rules::RuleSet& table);

// Brace initialisers of __half_raw / __half2_raw: `{.x = 0xFBFF}` (HIP's first member is the
// _Float16, CUDA's the bits).
void fp16_raw_init_pass(migrate::FileMigration& file);

// __half pointers in the arguments of hipBLAS's half-precision calls (cublasHgemm ...): a cast to
// the parameter's hipblasHalf pointer type (rules/hipblas_half_params.tsv), with a round-trip
// record of the argument; for hipBLAS before 6.0 (`old_hipblas`), the complex calls the tables give
// 6.0's _v2 function become the 5.x function with their complex pointers cast to hipblasComplex*
// (rules/hipblas_complex_params.tsv). --blas=hipblas only.
void blas_half_casts_pass(migrate::FileMigration& file, const rules::RuleSet& table, bool old_hipblas);

// Renames user declarations that clash with HIP names (ProjectContext::clash_renames), and
// their uses: FRY4101 at each declaration.
void name_clash_pass(migrate::FileMigration& file);

// The names HIP 5.2's runtime header defines that CUDA code may define (embedded
// rules/hip_reserved_names.tsv).
[[nodiscard]] std::unordered_set<std::string> load_reserved_names();

// Every identifier the rule tables know on either side: forward `from` names and the names
// (or called names of call templates) they map to, the rules/hip2cuda rows, and `unmapped`'s
// names (CUDA's own that no rule maps). Such a name is never a user clash (name_clash_scan).
// Views into `forward`, `unmapped` and the embedded tables.
[[nodiscard]] std::unordered_set<std::string_view> load_api_names(const rules::RuleSet& forward,
                                                                  const UnmappedNames& unmapped);

// load_api_names, made on the first question (thread-safe): most runs never ask one.
// `forward` and `unmapped` outlive it.
class ApiNames {
 public:
  ApiNames(const rules::RuleSet& forward, const UnmappedNames& unmapped) : forward_(forward), unmapped_(unmapped) {}
  [[nodiscard]] bool contains(std::string_view name) const;

 private:
  const rules::RuleSet& forward_;
  const UnmappedNames& unmapped_;
  mutable std::once_flag made_;
  mutable std::unordered_set<std::string_view> names_;
};

// The project-wide half of name_clash_pass (a pre-pass): finds the user's declarations of
// `reserved` names in the files and fills ctx.clash_renames / clash_origins / clash_kept. A name
// with a definition that hip_provided_pass guards (`provided`) is not renamed: HIP's definition
// serves its uses. The arguments outlive the scan.
[[nodiscard]] std::unique_ptr<ProjectScan> name_clash_scan(const std::unordered_set<std::string>& reserved,
                                                           const ApiNames& api_names, const HipProvidedTable& provided,
                                                           const rules::RuleSet& rules);

}  // namespace ferry::targets::hip
