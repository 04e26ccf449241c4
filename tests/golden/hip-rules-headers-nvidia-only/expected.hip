// NVIDIA-only toolkits stay as written, each include with FRY1001: libNVVM, nvJitLink, the
// driver API's EGL interop, cuSOLVER's low-level sparse preview, CUPTI.
#include <hip/hip_runtime.h>
#include <nvvm.h>
#include <nvJitLink.h>
#include <cudaEGL.h>
#include <cusolverSp_LOWLEVEL_PREVIEW.h>
#include <cupti.h>

int main() { return 0; }
