#pragma once
#include <cstddef>
// Stand-in for a project header; members named like CUDA APIs are not API uses.
struct Allocator {
  void* (*cudaMalloc)(std::size_t);
};
