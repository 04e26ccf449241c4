#include <cuda_runtime.h>

// CUDA 13's capture calls with their edge-data arguments (none: default edges).
cudaError_t extend_capture(cudaStream_t stream, cudaGraphNode_t node) {
  cudaStreamCaptureStatus status;
  cudaGraph_t graph;
  const cudaGraphNode_t *deps = NULL;
  size_t n = 0;
  cudaError_t err = cudaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, NULL, &n);
  if (err != cudaSuccess) return err;
  err = cudaStreamUpdateCaptureDependencies(
      stream, &node, NULL, 1, cudaStreamSetCaptureDependencies);
  if (err != cudaSuccess) return err;
  return cudaGraphAddDependencies(graph, deps, &node, nullptr, n);
}
