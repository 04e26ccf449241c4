// Kernels written for HIP before 1.0 take hipLaunchParm first; hipLaunchKernel passed it.
#include <hip/hip_runtime.h>

template<typename T>
__global__ void scale(hipLaunchParm lp, T* x, T a, unsigned n)
{
    const unsigned i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if(i < n)
        x[i] *= a;
}

__global__ void fill_one(hipLaunchParm lp)
{
}

void run(float* x, unsigned n, hipStream_t s)
{
    hipLaunchKernel(HIP_KERNEL_NAME(scale<float>), dim3((n + 255) / 256), dim3(256), 0, s, x, 2.0f, n);
    hipLaunchKernel(fill_one, dim3(1), dim3(1), 0, 0);
}

// HIP's runtime function of the same name (cudaLaunchKernel's twin) is not a legacy launch.
__global__ void plain(int* p) { *p = 1; }

void run_runtime(int* p, hipStream_t s)
{
    void* args[] = {&p};
    (void)hipLaunchKernel(reinterpret_cast<const void*>(&plain), dim3(1), dim3(1), args, 0, s);
}
