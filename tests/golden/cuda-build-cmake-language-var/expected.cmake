# The language of the sources chosen through a variable; the CUDA branch enables it with
# enable_language(${KERNEL_LANG}) and names no architecture (written for this test).
cmake_minimum_required(VERSION 3.21)
project(query LANGUAGES CXX)
# ferry-hip-was N=1 M=1 h=963331ee
# | set(GPU_RUNTIME "HIP" CACHE STRING "HIP or CUDA")
set(GPU_RUNTIME "CUDA" CACHE STRING "HIP or CUDA")
if(GPU_RUNTIME STREQUAL "CUDA")
  set(KERNEL_LANG "CUDA")
# ferry-hip-was N=3 M=0 h=e7ca380b
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
  enable_language(${KERNEL_LANG})
else()
  set(KERNEL_LANG "CXX")
endif()
add_executable(query main.cpp)
set_source_files_properties(main.cpp PROPERTIES LANGUAGE ${KERNEL_LANG})
