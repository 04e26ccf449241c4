// Thrust: sort and reduce on the device with the device execution policy.
#include <hip/hip_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>

float sorted_sum(thrust::device_vector<float>& v, hipStream_t stream) {
  thrust::sort(thrust::device, v.begin(), v.end());
  hipStreamSynchronize(stream);
  return thrust::reduce(thrust::device, v.begin(), v.end(), 0.0f);
}
