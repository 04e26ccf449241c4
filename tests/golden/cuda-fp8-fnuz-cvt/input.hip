// The FNUZ interpretation of HIP's C conversion API has no CUDA counterpart: reported, left.
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>

__hip_fp8_storage_t encode(float v) { return __hip_cvt_float_to_fp8(v, __HIP_NOSAT, __HIP_E4M3_FNUZ); }
