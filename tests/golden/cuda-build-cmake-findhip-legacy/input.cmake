# FindHIP's module mode: hip_add_executable with per-compiler option groups, a .cpp source made
# HIP by HIP_SOURCE_PROPERTY_FORMAT, a guard on HIP_FOUND (written for this test).
cmake_minimum_required(VERSION 3.16)
set(HIP_PATH /opt/rocm)
set(CMAKE_MODULE_PATH "${HIP_PATH}/lib/cmake/hip" ${CMAKE_MODULE_PATH})
project(legacy)
find_package(HIP)
if(NOT HIP_FOUND)
  message(FATAL_ERROR "HIP not found")
endif()
set(KERNEL_SOURCES stencil.cpp)
set_source_files_properties(${KERNEL_SOURCES} PROPERTIES HIP_SOURCE_PROPERTY_FORMAT 1)
hip_add_executable(stencil ${KERNEL_SOURCES} reduce.hip HIPCC_OPTIONS -O3 CLANG_OPTIONS -ffast-math NVCC_OPTIONS -lineinfo)
hip_add_library(helpers STATIC helpers.hip)
