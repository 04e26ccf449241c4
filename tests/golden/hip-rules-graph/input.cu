// CUDA graphs: capture a stream once, replay it many times.
#include <cuda_runtime.h>

__global__ void step(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f + 1.0f;
}

void replay(float* x, int n, int iters) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  step<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  for (int i = 0; i < iters; ++i) cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
}
