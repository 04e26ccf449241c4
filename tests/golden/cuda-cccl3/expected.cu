// hipCUB and rocThrust names CCCL 3.0 (CUDA 13) removed: CUB's functors and fancy iterators,
// thrust::identity, thrust::binary_function.
#include <cuda/std/functional>
#include <cuda/functional>
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/transform.h>

struct is_odd {
  __host__ __device__ int operator()(int x) const { return x & 1; }
};

struct scaled_add {
  float a;
  explicit scaled_add(float a_) : a(a_) {}
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

cudaError_t count_odd(void* tmp, size_t& bytes, int* out, int n, cudaStream_t s) {
  auto first = thrust::counting_iterator<int>(0);
  auto odd = thrust::transform_iterator<is_odd, decltype(first), int>(first, is_odd{});
  return cub::DeviceReduce::Reduce(tmp, bytes, odd, out, n, cuda::std::plus<>(), 0, s);
}

cudaError_t largest(void* tmp, size_t& bytes, const float* in, float* out, int n) {
  return cub::DeviceReduce::Reduce(tmp, bytes, in, out, n, cuda::maximum<>(), -1.0f);
}

void saxpy(thrust::device_vector<float>& x, thrust::device_vector<float>& y, float a) {
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), scaled_add(a));
  thrust::transform(y.begin(), y.end(), y.begin(), cuda::std::identity());
}
