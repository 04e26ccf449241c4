// A project header that includes no runtime header: with hipcc it compiled because each file
// including it had included <hip/hip_runtime.h> (and with it <memory> and <string>) first.
#ifndef DEMO_COMMON_H_
#define DEMO_COMMON_H_
#include <memory> /* ferry-hip: (none) */
#include <string> /* ferry-hip: (none) */
#include <cuda_runtime.h> /* ferry-hip: (none) */

namespace demo {

template <typename T, typename... Args>
std::unique_ptr<T> make_owned(Args&&... args) {
  return std::unique_ptr<T>(new T(std::forward<Args>(args)...));
}

int check(cudaError_t err, std::string what = "");

}  // namespace demo

#endif  // DEMO_COMMON_H_
