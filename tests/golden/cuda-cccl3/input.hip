// hipCUB and rocThrust names CCCL 3.0 (CUDA 13) removed: CUB's functors and fancy iterators,
// thrust::identity, thrust::binary_function.
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <hipcub/iterator/counting_input_iterator.hpp>
#include <hipcub/iterator/transform_input_iterator.hpp>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/transform.h>

struct is_odd {
  __host__ __device__ int operator()(int x) const { return x & 1; }
};

struct scaled_add : public thrust::binary_function<float, float, float> {
  float a;
  explicit scaled_add(float a_) : a(a_) {}
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

hipError_t count_odd(void* tmp, size_t& bytes, int* out, int n, hipStream_t s) {
  auto first = hipcub::CountingInputIterator<int>(0);
  auto odd = hipcub::TransformInputIterator<int, is_odd, decltype(first)>(first, is_odd{});
  return hipcub::DeviceReduce::Reduce(tmp, bytes, odd, out, n, hipcub::Sum(), 0, s);
}

hipError_t largest(void* tmp, size_t& bytes, const float* in, float* out, int n) {
  return hipcub::DeviceReduce::Reduce(tmp, bytes, in, out, n, hipcub::Max(), -1.0f);
}

void saxpy(thrust::device_vector<float>& x, thrust::device_vector<float>& y, float a) {
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), scaled_add(a));
  thrust::transform(y.begin(), y.end(), y.begin(), thrust::identity<float>());
}
