// A C-linkage kernel written without a blank after "C" (nvcc reads two tokens).
extern "C"__global__ void scale(float *x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
