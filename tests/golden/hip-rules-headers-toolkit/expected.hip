// driver_functions.h (make_cudaExtent, make_cudaPitchedPtr, make_cudaPos) and the runtime's own
// sub-headers map to HIP's runtime.
#include <hip/hip_runtime.h>
/* ferry-cuda: #include <driver_functions.h> */
/* ferry-cuda: #include <device_double_functions.h> */
/* ferry-cuda: #include <sm_35_atomic_functions.h> */

hipExtent volume_extent(size_t w, size_t h, size_t d) { return make_hipExtent(w * sizeof(float), h, d); }
hipPitchedPtr wrap(void* p, size_t pitch, size_t w, size_t h) { return make_hipPitchedPtr(p, pitch, w, h); }
