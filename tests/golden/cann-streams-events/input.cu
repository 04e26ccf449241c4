// Streams with flags and priorities, events with flags, timing, cross-stream waits and async
// copies in both directions.
#include <cuda_runtime.h>

float pipeline(float *d_buf, float *h_in, float *h_out, size_t bytes) {
  int least = 0, greatest = 0;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t copy_in, compute;
  cudaStreamCreateWithFlags(&copy_in, cudaStreamNonBlocking);
  cudaStreamCreateWithPriority(&compute, cudaStreamNonBlocking, greatest);

  cudaEvent_t uploaded, start, stop;
  cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&start, cudaEventDefault);
  cudaEventCreate(&stop);

  cudaEventRecord(start, compute);
  cudaMemcpyAsync(d_buf, h_in, bytes, cudaMemcpyHostToDevice, copy_in);
  cudaEventRecord(uploaded, copy_in);
  cudaStreamWaitEvent(compute, uploaded, 0);
  cudaMemcpyAsync(h_out, d_buf, bytes, cudaMemcpyDeviceToHost, compute);
  cudaEventRecord(stop, compute);
  cudaEventSynchronize(stop);

  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  cudaStreamSynchronize(copy_in);

  cudaEventDestroy(uploaded);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(copy_in);
  cudaStreamDestroy(compute);
  return ms;
}
