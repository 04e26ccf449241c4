// cuBLAS GEMM -> aclnnMatmul: a simple, fully visible call is rewritten; a transposed one is
// explained. The handle has no aclnn twin: its lines are left for the user to delete.
#include <aclnnop/aclnn_matmul.h>
#include <acl/acl.h>

void gemm(aclrtStream stream, const float *A, const float *B, float *C, int m, int n, int k) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, stream);
  {  // ferry: cublasSgemm -> aclnnMatmul; column-major C = A*B is row-major C^T = B^T * A^T
    int64_t ferry_self_shape[2] = {n, k}, ferry_self_strides[2] = {k, 1};
    int64_t ferry_mat2_shape[2] = {k, m}, ferry_mat2_strides[2] = {m, 1};
    int64_t ferry_out_shape[2] = {n, m}, ferry_out_strides[2] = {m, 1};
    aclTensor *ferry_self = aclCreateTensor(ferry_self_shape, 2, ACL_FLOAT, ferry_self_strides, 0, ACL_FORMAT_ND, ferry_self_shape, 2, (void *)(B));
    aclTensor *ferry_mat2 = aclCreateTensor(ferry_mat2_shape, 2, ACL_FLOAT, ferry_mat2_strides, 0, ACL_FORMAT_ND, ferry_mat2_shape, 2, (void *)(A));
    aclTensor *ferry_out = aclCreateTensor(ferry_out_shape, 2, ACL_FLOAT, ferry_out_strides, 0, ACL_FORMAT_ND, ferry_out_shape, 2, (void *)(C));
    uint64_t ferry_ws_size = 0;
    aclOpExecutor *ferry_executor = nullptr;
    aclnnMatmulGetWorkspaceSize(ferry_self, ferry_mat2, ferry_out, 1, &ferry_ws_size, &ferry_executor);
    void *ferry_ws = nullptr;
    if (ferry_ws_size > 0) aclrtMalloc(&ferry_ws, ferry_ws_size, ACL_MEM_MALLOC_HUGE_FIRST);
    aclnnMatmul(ferry_ws, ferry_ws_size, ferry_executor, stream);
    aclrtSynchronizeStream(stream);
    if (ferry_ws != nullptr) aclrtFree(ferry_ws);
    aclDestroyTensor(ferry_self);
    aclDestroyTensor(ferry_mat2);
    aclDestroyTensor(ferry_out);
  }
  cublasDestroy(handle);
}

void gemm_transposed(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, A, k, B, k, &beta, C, m);
}
