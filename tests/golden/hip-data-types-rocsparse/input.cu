// cudaDataType in cuSPARSE calls under --sparse=rocsparse: rocSPARSE takes its own
// rocsparse_datatype (rocsparse_datatype_f32_r); outside the call CUDA_R_32F is HIP_R_32F.
#include <cuda_runtime.h>
#include <cusparse.h>

cudaDataType value_type() { return CUDA_R_32F; }

int make_vector(cusparseDnVecDescr_t* vec, int64_t n, float* values) {
  return cusparseCreateDnVec(vec, n, values, CUDA_R_32F) == CUSPARSE_STATUS_SUCCESS ? 0 : 1;
}
