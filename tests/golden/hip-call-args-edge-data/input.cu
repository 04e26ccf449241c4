// CUDA 13 gave the graph calls that take or return dependencies an edge-data argument; HIP takes
// CUDA 12's form. A null edge-data argument is dropped (FRY4112), any other is left (FRY4113).
// cudaStreamGetCaptureInfo's CUDA 12 forms (2 to 6 arguments) are hipStreamGetCaptureInfo_v2's.
#include <cuda_runtime.h>

cudaError_t extend_capture(cudaStream_t stream, cudaGraphNode_t* added, size_t n_added) {
  cudaStreamCaptureStatus status;
  cudaGraph_t graph;
  const cudaGraphNode_t* deps = nullptr;
  size_t n_deps = 0;
  cudaError_t err = cudaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, NULL, &n_deps);
  if (err != cudaSuccess || status != cudaStreamCaptureStatusActive) return err;
  return cudaStreamUpdateCaptureDependencies(stream, added, nullptr, n_added, cudaStreamSetCaptureDependencies);
}

cudaError_t capture_forms(cudaStream_t stream) {
  cudaStreamCaptureStatus status;
  unsigned long long id = 0;
  cudaGraph_t graph;
  const cudaGraphNode_t* deps;
  size_t n = 0;
  cudaStreamGetCaptureInfo(stream, &status);  // 2 arguments (CUDA 12 and 13)
  cudaStreamGetCaptureInfo(stream, &status, &id);  // CUDA 11's form, HIP's hipStreamGetCaptureInfo
  cudaStreamGetCaptureInfo(stream, &status, &id, &graph);
  cudaStreamGetCaptureInfo(stream, &status, &id, &graph, &deps);
  // 6 arguments are read as CUDA 12's form (numDependencies last; CUDA 13 would take edge data)
  return cudaStreamGetCaptureInfo(stream, &status, &id, &graph, &deps, &n);
}

cudaError_t link(cudaGraph_t graph, cudaGraphNode_t from, cudaGraphNode_t to) {
  cudaGraphNode_t deps[4];
  size_t n = 4, edges = 0;
  cudaError_t err = cudaGraphAddDependencies(graph, &from, &to, 0, 1);
  if (err == cudaSuccess) err = cudaGraphNodeGetDependencies(to, deps, NULL, &n);
  if (err == cudaSuccess) err = cudaGraphNodeGetDependentNodes(from, deps, NULL, &n);
  if (err == cudaSuccess) err = cudaGraphGetEdges(graph, NULL, NULL, NULL, &edges);
  if (err == cudaSuccess) err = cudaGraphRemoveDependencies(graph, &from, &to, nullptr, 1);
  return err;
}

#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY4113): HIP has no edge data
cudaError_t link_port(cudaGraph_t graph, cudaGraphNode_t from, cudaGraphNode_t to, const cudaGraphEdgeData* edge) {
  return cudaGraphAddDependencies(graph, &from, &to, edge, 1);
}
#endif
