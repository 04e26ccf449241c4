// What Ferry knows about each CUDA library and GPU framework, written once: `ferry scan` reads it to
// tell which library an #include, a name prefix, a namespace, a rule family or a link flag belongs
// to; buildsys reads it to tell what a CUDA library becomes on HIP (-l name, CMake target, package).
// One row per library; lists inside a field are space-separated.
#pragma once

#include <span>
#include <string_view>

namespace ferry::rules {

struct CudaLibrary {
  std::string_view id;          // stable id of scan's JSON: "cublas"
  std::string_view name;        // display name: "cuBLAS"
  std::string_view category;    // "gpu-library" | "framework"
  std::string_view families;    // rule families of the built-in tables that belong to it
  std::string_view headers;     // include paths; "x*" matches every path starting with x
  std::string_view prefixes;    // name prefixes of its API when no table knows a name: "cublas CUBLAS_"
  std::string_view namespaces;  // C++ namespaces that mark it: "thrust"
  std::string_view links;       // link names (-lX, CUDA::X, find_library): "cudart cudart_static"
  std::string_view hip_link;    // on HIP: -l name ("" = buildsys leaves it alone)
  std::string_view hip_cmake_target;
  std::string_view hip_package;  // find_package name ("" = none)
};

// Every row, in the order scan reports ties and guesses prefixes (longer prefixes first).
[[nodiscard]] std::span<const CudaLibrary> cuda_libraries();
[[nodiscard]] const CudaLibrary* find_library(std::string_view id);
// The library of an #include path (exact paths first, then the longest prefix); nullptr if none.
[[nodiscard]] const CudaLibrary* library_of_header(std::string_view path);
// The library of a rule family; families no row lists belong to the CUDA runtime.
[[nodiscard]] const CudaLibrary& library_of_family(std::string_view family);
// The library of a link name as written in -l / CUDA:: / find_library (exact); nullptr if none.
[[nodiscard]] const CudaLibrary* library_of_link(std::string_view name);
[[nodiscard]] const CudaLibrary* library_of_namespace(std::string_view ns);
// Whether `word` is one of the space-separated words of `list`.
[[nodiscard]] bool in_list(std::string_view list, std::string_view word);

}  // namespace ferry::rules
