// cudaDataType in cuSPARSE calls under --sparse=rocsparse: rocSPARSE takes its own
// rocsparse_datatype (rocsparse_datatype_f32_r); outside the call CUDA_R_32F is HIP_R_32F.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

hipDataType value_type() { return HIP_R_32F; }

int make_vector(rocsparse_dnvec_descr* vec, int64_t n, float* values) {
  return rocsparse_create_dnvec_descr(vec, n, values, rocsparse_datatype_f32_r) == rocsparse_status_success ? 0 : 1;
}
