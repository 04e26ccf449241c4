// Thrust (rocThrust after migration): device vectors, sort_by_key, a transform_reduce over
// thrust::complex, and a raw pointer wrapped for an algorithm. Compiled against the real rocThrust
// headers over Debian's rocPRIM (rocm.headers).
#include <thrust/complex.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

struct norm2 {
  __host__ __device__ float operator()(const thrust::complex<float>& z) const { return thrust::norm(z); }
};

float energy(const thrust::device_vector<thrust::complex<float>>& x) {
  return thrust::transform_reduce(x.begin(), x.end(), norm2(), 0.0f, thrust::plus<float>());
}

void sort_pairs(thrust::device_vector<int>& keys, thrust::device_vector<float>& values) {
  thrust::sort_by_key(keys.begin(), keys.end(), values.begin(), thrust::greater<int>());
}

int total(int* d, int n) {
  thrust::device_ptr<int> p = thrust::device_pointer_cast(d);
  return thrust::reduce(p, p + n, 0);
}
