// Thrust: sort on a stream with the CUDA execution policy, then reduce on the device.
// thrust::cuda:: becomes thrust::hip:: (rocThrust); libcu++'s own cuda:: namespace is not Thrust's.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>

namespace cuda { inline int device_count_hint() { return 1; } }  // a user namespace named cuda

float sorted_sum(thrust::device_vector<float>& v, hipStream_t stream) {
  thrust::sort(thrust::hip::par.on(stream), v.begin(), v.end());
  const int hint = cuda::device_count_hint();
  return thrust::reduce(thrust::device, v.begin(), v.end(), 0.0f) * hint;
}
