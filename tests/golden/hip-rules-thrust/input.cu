// Thrust: sort and reduce on the device with the device execution policy.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>

float sorted_sum(thrust::device_vector<float>& v, cudaStream_t stream) {
  thrust::sort(thrust::device, v.begin(), v.end());
  cudaStreamSynchronize(stream);
  return thrust::reduce(thrust::device, v.begin(), v.end(), 0.0f);
}
