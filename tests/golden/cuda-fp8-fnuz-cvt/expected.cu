// The FNUZ interpretation of HIP's C conversion API has no CUDA counterpart: reported, left.
#include <cuda_runtime.h>
#include <cuda_fp8.h>

__nv_fp8_storage_t encode(float v) { return __nv_cvt_float_to_fp8(v, __NV_NOSAT, __HIP_E4M3_FNUZ); }
