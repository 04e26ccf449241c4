// CUDA 13 gave the graph calls that take or return dependencies an edge-data argument; HIP takes
// CUDA 12's form. A null edge-data argument is dropped (FRY4112), any other is left (FRY4113).
// cudaStreamGetCaptureInfo's CUDA 12 forms (2 to 6 arguments) are hipStreamGetCaptureInfo_v2's.
#include <hip/hip_runtime.h>

hipError_t extend_capture(hipStream_t stream, hipGraphNode_t* added, size_t n_added) {
  hipStreamCaptureStatus status;
  hipGraph_t graph;
  const hipGraphNode_t* deps = nullptr;
  size_t n_deps = 0;
  hipError_t err = hipStreamGetCaptureInfo_v2(stream, &status, NULL, &graph, &deps, /* ferry-cuda: NULL, */ &n_deps);
  if (err != hipSuccess || status != hipStreamCaptureStatusActive) return err;
  return hipStreamUpdateCaptureDependencies(stream, added, /* ferry-cuda: nullptr, */ n_added, hipStreamSetCaptureDependencies);
}

hipError_t capture_forms(hipStream_t stream) {
  hipStreamCaptureStatus status;
  unsigned long long id = 0;
  hipGraph_t graph;
  const hipGraphNode_t* deps;
  size_t n = 0;
  hipStreamGetCaptureInfo_v2 /* ferry-cuda: cudaStreamGetCaptureInfo */(stream, &status);  // 2 arguments (CUDA 12 and 13)
  hipStreamGetCaptureInfo(stream, &status, &id);  // CUDA 11's form, HIP's hipStreamGetCaptureInfo
  hipStreamGetCaptureInfo_v2 /* ferry-cuda: cudaStreamGetCaptureInfo */(stream, &status, &id, &graph);
  hipStreamGetCaptureInfo_v2 /* ferry-cuda: cudaStreamGetCaptureInfo */(stream, &status, &id, &graph, &deps);
  // 6 arguments are read as CUDA 12's form (numDependencies last; CUDA 13 would take edge data)
  return hipStreamGetCaptureInfo_v2 /* ferry-cuda: cudaStreamGetCaptureInfo */(stream, &status, &id, &graph, &deps, &n);
}

hipError_t link(hipGraph_t graph, hipGraphNode_t from, hipGraphNode_t to) {
  hipGraphNode_t deps[4];
  size_t n = 4, edges = 0;
  hipError_t err = hipGraphAddDependencies(graph, &from, &to, /* ferry-cuda: 0, */ 1);
  if (err == hipSuccess) err = hipGraphNodeGetDependencies(to, deps, /* ferry-cuda: NULL, */ &n);
  if (err == hipSuccess) err = hipGraphNodeGetDependentNodes(from, deps, /* ferry-cuda: NULL, */ &n);
  if (err == hipSuccess) err = hipGraphGetEdges(graph, NULL, NULL, /* ferry-cuda: NULL, */ &edges);
  if (err == hipSuccess) err = hipGraphRemoveDependencies(graph, &from, &to, /* ferry-cuda: nullptr, */ 1);
  return err;
}

#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY4113): HIP has no edge data
hipError_t link_port(hipGraph_t graph, hipGraphNode_t from, hipGraphNode_t to, const cudaGraphEdgeData* edge) {
  return hipGraphAddDependencies(graph, &from, &to, edge, 1);
}
#endif
