// Semantic passes of the HIP → CUDA target. Order (CudaTarget::run_passes): syncwarp, launch,
// ballot, amd_only; edits of an earlier pass win over later ones and over the rule tables.
// Golden tests: tests/golden/cuda-<pass>-*/.
#pragma once

#include "migrate/file_migration.h"

namespace ferry::targets::cuda {

// What the CUDA → HIP target writes for `__syncwarp()` (a wavefront release fence, a wave
// barrier and an acquire fence in one comma expression) comes back as `__syncwarp()`, and a lone
// `__builtin_amdgcn_wave_barrier()` too, so CUDA → HIP → CUDA round-trips.
void syncwarp_pass(migrate::FileMigration& file);

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

// Finishing step: a file that uses the kernel language or the runtime without including a runtime
// header gets `#include <cuda_runtime.h>` where the CUDA → HIP target would put
// <hip/hip_runtime.h>, so that HIP → CUDA → HIP reaches a fixed point.
void runtime_header_pass(migrate::FileMigration& file);

}  // namespace ferry::targets::cuda
