// Semantic passes of the HIP → CUDA target. Order: CudaTarget::run_passes in cuda_target.cpp is the
// one list (a copy here went stale); edits of an earlier pass win over later ones and over the rule
// tables. Then the rules, then CudaTarget::finish_file (hip_record, the compat header,
// roc_native_finish's side headers, the runtime header). Golden tests: tests/golden/cuda-<pass>-*/.
#pragma once

#include <string>
#include <vector>

#include "migrate/file_migration.h"

namespace ferry::targets::cuda {

// Puts back what the CUDA → HIP target recorded in `/* ferry-cuda: ... */` comments (headers it
// changed or added, warp-call masks HIP 5.2 cannot take), so CUDA → HIP → CUDA is exact.
void record_restore_pass(migrate::FileMigration& file);
// What an include line this target adds for nvcc ends with: ` /* ferry-hip: (none) */`, so that
// HIP -> CUDA -> HIP drops it (HIP's runtime header brought it); "" on the way back of a round trip.
[[nodiscard]] std::string added_record(const migrate::FileMigration& file);
// After the rules: HIP code's own CUDA names (code for NVIDIA builds) get `/* ferry-hip: NAME */`
// records, so HIP -> CUDA -> HIP gives them back as written (rewrite/roundtrip_record.h, to_hip).
void hip_record_pass(migrate::FileMigration& file);
// The wave64 fix's logical 32-lane warps (ballots and votes of a wavefront's half, shuffle widths
// it added with a `/* ferry-cuda: (none) */` record) come back as CUDA's full-warp calls, so
// CUDA -> HIP -> CUDA gives the CUDA the fix started from (docs/wave64.md, "Round trips").
void logical_warp_pass(migrate::FileMigration& file);

// hipModule* -> the runtime's library API for CUDA >= 12 comes from the rule table; in a file
// written against the driver API (hipInit, hipCtx*, ... or recorded <cuda.h>) this pass keeps the
// driver API (cuModuleLoad, cuLaunchKernel, CUmodule, CUfunction).
void module_api_pass(migrate::FileMigration& file);
// The file is written against the driver API (hipInit, hipCtx*, hipDeviceGet, ... or a recorded
// <cuda.h>): module_api_pass keeps the driver's names for the hipModule* calls.
bool driver_style(const migrate::FileMigration& f);
// Code token `ci` names a HIP function that becomes a driver function (`cu*`) on CUDA: a
// hipModule*/hipCtx* name when `module_names` (a driver_style file), or a name the rules map to
// a driver function of <cuda.h> (hipMemcpyHtoD -> cuMemcpyHtoD).
bool driver_function(const migrate::FileMigration& f, std::size_t ci, bool module_names);
// The way back of a round trip: the tree was migrated from CUDA, or the file carries the forward
// migration's records; the CUDA original's text comes back as it was.
bool from_cuda(const migrate::FileMigration& f);

// hipDeviceptr_t is a void* in HIP and CUdeviceptr an integer in CUDA. Each local variable
// declared hipDeviceptr_t is typed by its uses: pointer uses (runtime calls taking void*, `&d`
// as a void**, comparison with nullptr, assignment to a void*) against driver uses (a CUdeviceptr
// parameter of a driver call); a pointer-used one is declared void* (FRY1256). Where a value
// crosses between the two a cast goes in: `(CUdeviceptr)p`, `(CUdeviceptr*)&p`, `(void*)d`,
// `(void**)&d`; a pointer argument (`float *d` as hipMemcpyHtoD's destination) gets
// `(CUdeviceptr)d` too (FRY1257). An argument of a driver call whose type Ferry cannot tell, or a
// pointer-used variable with uses Ferry cannot type, FRY1258. Not on the way back of a round trip.
void deviceptr_pass(migrate::FileMigration& file);

// A file that calls the driver-only virtual memory API (hipMemCreate, hipMemSetAccess...) and not
// the memory-pool API: the VMM structs and enums take the driver's spelling (CUmemAccessDesc).
void vmm_pass(migrate::FileMigration& file);

// What the CUDA → HIP target writes for `__syncwarp()` (a wavefront release fence, a wave
// barrier and an acquire fence in one comma expression) comes back as `__syncwarp()`, and a lone
// `__builtin_amdgcn_wave_barrier()` too, so CUDA → HIP → CUDA round-trips.
void syncwarp_pass(migrate::FileMigration& file);

// `printf("%u", (unsigned int)threadIdx.x)` (the CUDA -> HIP target's cast of a built-in index
// for clang's AMDGPU printf) -> `printf("%u", threadIdx.x)`: CUDA's are unsigned ints.
void printf_cast_pass(migrate::FileMigration& file);

// `__global__` static member functions (nvcc rejects them): the member becomes a public
// `__device__` function and a kernel at namespace scope, `Class_kernel`, calls it; launches and
// `Class<T>::kernel` references name that kernel (FRY1244); what cannot be hoisted, FRY1245.
void member_kernel_pass(migrate::FileMigration& file);

// `hipLaunchKernelGGL(k, g, b, shm, stream, args...)` → `k<<<g, b, shm, stream>>>(args...)`;
// `HIP_KERNEL_NAME(k<T>)` and `(k<T>)` are unwrapped. Only the glue is edited, so renames inside
// the launch parameters and the arguments still apply.
void launch_pass(migrate::FileMigration& file);

// HIP's `__ballot(p)` returns a 64-bit mask; CUDA's `__ballot_sync` a 32-bit one. The call
// becomes `(unsigned long long)__ballot_sync(0xffffffff, p)`; the cast is left out where the
// value is converted anyway (initialising or assigned to a declared non-auto variable, returned,
// passed to a bit function such as __popcll, or already cast). `__ballot(1)`, HIP's mask of the
// active lanes (what the CUDA → HIP target writes for `__activemask()`), becomes
// `__activemask()`.
void ballot_pass(migrate::FileMigration& file);

// AMD-only features with no CUDA meaning: `__builtin_amdgcn_*` (FRY1201), `hipExt*` functions
// without a rule (FRY1202), `__AMDGCN_*` macros other than the wave size (FRY1203), inline
// assembly, which in HIP code is GCN assembly (FRY1204). Left unchanged.
void amd_only_pass(migrate::FileMigration& file);

// `#include "ferry/compat/<name>.h"` (the HIP target's compat headers) removed: CUDA has the names.
void hip_compat_include_pass(migrate::FileMigration& file);

// hipDeviceProp_t fields cudaDeviceProp lacks: CUDA 13 removed clockRate, memoryClockRate,
// computeMode, ... (read through ferry::cuda_compat::device_attribute, i.e. cudaDeviceGetAttribute);
// HIP's own gcnArchName, gcnArch, maxSharedMemoryPerMultiProcessor, clockInstructionRate get
// their NVIDIA counterparts (FRY4201), AMD-only ones FRY1205; on an object whose type the file
// does not show, FRY4202. Fields removed in CUDA 13 are kept when --cuda-version is older.
void device_prop_pass(migrate::FileMigration& file);

// CCCL 3.0 (CUDA >= 13): hipcub::Sum/Max/Min/... -> cuda::std::plus<>/cuda::maximum<>/...,
// hipcub::CountingInputIterator/ConstantInputIterator/DiscardOutputIterator/TransformInputIterator ->
// thrust::counting_iterator/... (template arguments reordered), thrust::identity<T> ->
// cuda::std::identity, thrust::unary_function/binary_function bases removed (FRY4203).
void cccl_pass(migrate::FileMigration& file);

// rocPRIM (no CUDA backend) -> CUB: block_load/store/reduce/scan and their methods, the
// device-wide reduce, inclusive/exclusive scan and radix sorts (arguments reordered), functors
// (FRY4207); what has no CUB form here gets FRY1208 and stays.
void rocprim_pass(migrate::FileMigration& file);

// HIP's vector and complex types have constructors, CUDA's are structs: float4(a, b, c, d) ->
// make_float4(a, b, c, d), float4(x) -> make_float4(x, x, x, x) for a plain x, hipblasComplex(r, i)
// -> make_cuComplex(r, i) (FRY4204).
void vector_ctor_pass(migrate::FileMigration& file);

// Standard headers <hip/hip_runtime.h> brought along (<cstdio>, <cstdint>, <cassert>, <string>,
// <memory>, ...) and <cuda_runtime.h> does not: added where the file uses their names (FRY4205).
// Also in a file that includes no runtime header but relies on its includer's (a project header).
void implicit_headers_pass(migrate::FileMigration& file);

// float/double atomicMax/atomicMin (HIP only) -> ferry::cuda_compat::atomicMax/Min, unless the
// address is provably an integer's or the file defines its own overload (FRY4206).
void atomic_fp_pass(migrate::FileMigration& file);

// Wavefront-64 code paths (the mirror image of the hip target's wave64 fix): each #if that
// chooses code by the wavefront width gets FRY1240 (nvcc compiles the 32-lane branch);
// `defined(__AMDGCN_WAVEFRONT_SIZE)` stays a test of definedness; `#define WARP_SIZE 64` (a
// project's width macro outside AMD-only branches) becomes 32 (FRY1241).
void wave64_select_pass(migrate::FileMigration& file);

// Loop and lambda bodies that write a __shared__ array and read another lane's slot of it with no
// barrier (the lock-step steps of a wavefront reduction) get `__syncwarp();` at their end; under
// an `if`, a warning instead (FRY1242).
void warp_sync_pass(migrate::FileMigration& file);

// `__HIP_PLATFORM_NVIDIA__` / `__HIP_PLATFORM_NVCC__` in #if/#ifdef/#ifndef/#elif: hipcc defined
// them on NVIDIA, nvcc does not; the test becomes its value there, 1 (FRY1243).
void hip_platform_pass(migrate::FileMigration& file);

// Arithmetic on HIP vector types (`float4 + float4`, `int2 * 3`): CUDA's have no operators; the
// file includes ferry/compat_cuda_vector.h, which defines them (FRY4241), unless the project
// defines its own or the tree is the way back of a CUDA -> HIP migration.
void vector_ops_pass(migrate::FileMigration& file);
// hipSOLVER's workspace sizes are bytes on AMD, cuSOLVER's legacy API's are elements: a query's
// result becomes bytes, a routine's size elements (ferry::cuda_compat::solver_lwork_*, FRY1315;
// rules/cusolver_lwork.tsv).
void solver_lwork_pass(migrate::FileMigration& file);

// The ROCm libraries' native APIs where a rename is not enough (roc_native_pass.cpp): rocSPARSE
// version tests read rocSPARSE 3 (FRY1320), `case`s of statuses the CUDA library never returns go
// (FRY1321), staged rocsparse_spmv/spmm calls become cuSPARSE's function for their stage (FRY1248,
// FRY1249), a local rocsparse_mat_info takes the cuSPARSE info type of its algorithm (FRY1250,
// FRY1251); rocSOLVER, rocFFT and rocRAND's C++ wrapper are reported at their include (FRY1322).
void roc_native_pass(migrate::FileMigration& file);
// After the rules: a file whose calls became ferry::cusparse_compat:: (rocsparse_?csr2dense,
// removed from cuSPARSE in CUDA 12) gets ferry/compat_cusparse.h beside it and included.
void roc_native_finish(migrate::FileMigration& file);

// Texture references, removed in CUDA 12.0: FRY1206 on each `texture<...>` declaration.
void texture_ref_pass(migrate::FileMigration& file);

// rocWMMA element types -> CUDA's (float16_t -> __half, ...); fragment shapes nvcuda::wmma lacks
// for the element type get FRY1207.
void wmma_pass(migrate::FileMigration& file);

// Finishing step: a file that uses the kernel language or the runtime without including a runtime
// header gets `#include <cuda_runtime.h>` where the CUDA → HIP target would put
// <hip/hip_runtime.h>, so that HIP → CUDA → HIP reaches a fixed point.
void runtime_header_pass(migrate::FileMigration& file);

// The file uses the kernel language or the runtime and includes no runtime header: it compiled
// with hipcc because whoever includes it (or hipcc itself) included <hip/hip_runtime.h> first.
bool relies_on_includers_runtime(const migrate::FileMigration& file);

}  // namespace ferry::targets::cuda
