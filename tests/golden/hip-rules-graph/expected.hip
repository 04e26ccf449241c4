// CUDA graphs: capture a stream once, replay it many times.
#include <hip/hip_runtime.h>

__global__ void step(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f + 1.0f;
}

void replay(float* x, int n, int iters) {
  hipStream_t s;
  hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
  hipGraph_t graph;
  hipGraphExec_t exec;
  hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);
  step<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  hipStreamEndCapture(s, &graph);
  hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  for (int i = 0; i < iters; ++i) hipGraphLaunch(exec, s);
  hipStreamSynchronize(s);
  hipGraphExecDestroy(exec);
  hipGraphDestroy(graph);
  hipStreamDestroy(s);
}
