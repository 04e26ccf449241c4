// driver_functions.h (make_cudaExtent, make_cudaPitchedPtr, make_cudaPos) and the runtime's own
// sub-headers map to HIP's runtime.
#include <cuda_runtime.h>
#include <driver_functions.h>
#include <device_double_functions.h>
#include <sm_35_atomic_functions.h>

cudaExtent volume_extent(size_t w, size_t h, size_t d) { return make_cudaExtent(w * sizeof(float), h, d); }
cudaPitchedPtr wrap(void* p, size_t pitch, size_t w, size_t h) { return make_cudaPitchedPtr(p, pitch, w, h); }
