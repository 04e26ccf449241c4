// cuDNN: handle and tensor descriptors (direct MIOpen twins) and a call without one.
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

int describe(int n, int c, int h, int w) {
  miopenHandle_t handle;
  if (miopenCreate(&handle) != miopenStatusSuccess) return 1;
  miopenTensorDescriptor_t desc;
  miopenCreateTensorDescriptor(&desc);
  miopenSet4dTensorDescriptor(desc, CUDNN_TENSOR_NCHW, miopenFloat, n, c, h, w);
  miopenDestroyTensorDescriptor(desc);
  cudnnBackendDescriptor_t plan;
  cudnnBackendCreateDescriptor(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan);
  miopenDestroy(handle);
  return 0;
}
