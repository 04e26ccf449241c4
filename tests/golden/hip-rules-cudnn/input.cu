// cuDNN: handle and tensor descriptors (direct MIOpen twins) and a call without one.
#include <cuda_runtime.h>
#include <cudnn.h>

int describe(int n, int c, int h, int w) {
  cudnnHandle_t handle;
  if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) return 1;
  cudnnTensorDescriptor_t desc;
  cudnnCreateTensorDescriptor(&desc);
  cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w);
  cudnnDestroyTensorDescriptor(desc);
  cudnnBackendDescriptor_t plan;
  cudnnBackendCreateDescriptor(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan);
  cudnnDestroy(handle);
  return 0;
}
