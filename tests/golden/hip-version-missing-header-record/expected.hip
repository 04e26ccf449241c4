// A header the target release lacks stays as written (FRY1301: hipSOLVER's refactorisation API,
// hipsolverRf*, is in ROCm 5.6). It is not rewritten, so no /* ferry-cuda: */ record is added for
// the way back either: migrating the output again must change nothing (cuda-samples' cuSolverRf
// gained one more record per migration). Nor does it count as hipsolver.h already included:
// cusolverDn.h still becomes hipsolver/hipsolver.h instead of being dropped as a duplicate.
#include <hip/hip_runtime.h>
#include "cusolverRf.h"
#include "hipsolver/hipsolver.h"

int main() {
  hipsolverDnHandle_t dn = nullptr;
  hipsolverDnCreate(&dn);
  hipsolverDnDestroy(dn);
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
