// A header the target release lacks stays as written (FRY1301: hipSOLVER's refactorisation API,
// hipsolverRf*, is in ROCm 5.6). It is not rewritten, so no /* ferry-cuda: */ record is added for
// the way back either: migrating the output again must change nothing (cuda-samples' cuSolverRf
// gained one more record per migration). Nor does it count as hipsolver.h already included:
// cusolverDn.h still becomes hipsolver/hipsolver.h instead of being dropped as a duplicate.
#include <cuda_runtime.h>
#include "cusolverRf.h"
#include "cusolverDn.h"

int main() {
  cusolverDnHandle_t dn = nullptr;
  cusolverDnCreate(&dn);
  cusolverDnDestroy(dn);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
