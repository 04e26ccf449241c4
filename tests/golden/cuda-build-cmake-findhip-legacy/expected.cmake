# FindHIP's module mode: hip_add_executable with per-compiler option groups, a .cpp source made
# HIP by HIP_SOURCE_PROPERTY_FORMAT, a guard on HIP_FOUND (written for this test).
cmake_minimum_required(VERSION 3.16)
set(HIP_PATH /opt/rocm)
set(CMAKE_MODULE_PATH "${HIP_PATH}/lib/cmake/hip" ${CMAKE_MODULE_PATH})
project(legacy)
# ferry-hip-was N=6 M=2 h=090e5581
# | find_package(HIP)
# | if(NOT HIP_FOUND)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
find_package(CUDAToolkit REQUIRED)
enable_language(CUDA)  # ferry: FindHIP's hip_add_* targets are CUDA targets now
if(NOT CUDAToolkit_FOUND)
  message(FATAL_ERROR "HIP not found")
endif()
set(KERNEL_SOURCES stencil.cpp)
# ferry-hip-was N=6 M=3 h=fabf9137
# | set_source_files_properties(${KERNEL_SOURCES} PROPERTIES HIP_SOURCE_PROPERTY_FORMAT 1)
# | hip_add_executable(stencil ${KERNEL_SOURCES} reduce.hip HIPCC_OPTIONS -O3 CLANG_OPTIONS -ffast-math NVCC_OPTIONS -lineinfo)
# | hip_add_library(helpers STATIC helpers.hip)
set_source_files_properties(${KERNEL_SOURCES} PROPERTIES LANGUAGE CUDA)
add_executable(stencil ${KERNEL_SOURCES} reduce.hip)
set_source_files_properties(reduce.hip PROPERTIES LANGUAGE CUDA)
target_compile_options(stencil PRIVATE -lineinfo)
add_library(helpers STATIC helpers.hip)
set_source_files_properties(helpers.hip PROPERTIES LANGUAGE CUDA)
