// A name that one class declares as a CUdeviceptr function and another as a function returning a
// typed pointer: the second declaration is no integer use (cuda-vmm's vector over its allocators).
#include <cuda.h>
#include <cstddef>

class Allocator {
  CUdeviceptr base = 0;

 public:
  CUdeviceptr getPointer() const { return base; }
  CUdeviceptr end(size_t bytes) const { return base + bytes; }
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
