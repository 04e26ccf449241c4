// cuFFT: a batched 1-D complex-to-complex transform, forward then inverse.
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

int fft_roundtrip(hipfftComplex* data, int n, int batch, hipStream_t stream) {
  hipfftHandle plan;
  if (hipfftPlan1d(&plan, n, HIPFFT_C2C, batch) != HIPFFT_SUCCESS) return 1;
  hipfftSetStream(plan, stream);
  hipfftExecC2C(plan, data, data, HIPFFT_FORWARD);
  hipfftExecC2C(plan, data, data, HIPFFT_BACKWARD);
  hipfftDestroy(plan);
  return 0;
}
