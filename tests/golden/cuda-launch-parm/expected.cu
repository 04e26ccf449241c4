// Kernels written for HIP before 1.0 take hipLaunchParm first; hipLaunchKernel passed it.
#include <cuda_runtime.h>

template<typename T>
__global__ void scale(T* x, T a, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        x[i] *= a;
}

__global__ void fill_one()
{
}

void run(float* x, unsigned n, cudaStream_t s)
{
    scale<float><<<dim3((n + 255) / 256), dim3(256), 0, s>>>(x, 2.0f, n);
    fill_one<<<dim3(1), dim3(1), 0, 0>>>();
}

// HIP's runtime function of the same name (cudaLaunchKernel's twin) is not a legacy launch.
__global__ void plain(int* p) { *p = 1; }

void run_runtime(int* p, cudaStream_t s)
{
    void* args[] = {&p};
    (void)cudaLaunchKernel(reinterpret_cast<const void*>(&plain), dim3(1), dim3(1), args, 0, s);
}
