// Host OpenMP around a kernel launch: the build compiles this unit with -fopenmp
// (nvcc -Xcompiler -fopenmp), and <omp.h> is the host compiler's own header.
#include <cstdio>
#include <omp.h>

__global__ void scale(float *v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

int main() {
  const int n = 1 << 16;
  float *h = new float[n];
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i) {
    h[i] = static_cast<float>(i % 7);
    sum += h[i];
  }
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, 0.5f, n);
  cudaDeviceSynchronize();
  std::printf("%d threads, sum %.1f\n", omp_get_max_threads(), sum);
  cudaFree(d);
  delete[] h;
  return 0;
}
