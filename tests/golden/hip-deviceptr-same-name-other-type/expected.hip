// A name that one class declares as a CUdeviceptr function and another as a function returning a
// typed pointer: the second declaration is no integer use (cuda-vmm's vector over its allocators).
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
#include <cstddef>

class Allocator {
  hipDeviceptr_t base = 0;

 public:
  hipDeviceptr_t getPointer() const { return base; }
  hipDeviceptr_t end(size_t bytes) const { return ((hipDeviceptr_t)((char*)base + bytes)) /* ferry-cuda: base + bytes */; }
};

template <class T>
class Vector {
  Allocator allocator;

 public:
  T *getPointer() const { return (T *)allocator.getPointer(); }
  T *data();
  size_t bytes() const;
};

template <class T>
size_t Vector<T>::bytes() const {
  return 2 * sizeof(T);
}
