// cuFFT: a batched 1-D complex-to-complex transform, forward then inverse.
#include <cuda_runtime.h>
#include <cufft.h>

int fft_roundtrip(cufftComplex* data, int n, int batch, cudaStream_t stream) {
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, batch) != CUFFT_SUCCESS) return 1;
  cufftSetStream(plan, stream);
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cufftExecC2C(plan, data, data, CUFFT_INVERSE);
  cufftDestroy(plan);
  return 0;
}
