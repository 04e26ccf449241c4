# ROCm's clang++ as the C++ compiler: the sources of the targets that link hip::device are HIP,
# the others plain C++; hipRTC and its builtins library (written for this test).
cmake_minimum_required(VERSION 3.21)
project(clang_cxx LANGUAGES CXX)
if(NOT DEFINED ROCM_PATH)
  set(ROCM_PATH "/opt/rocm" CACHE STRING "ROCm root")
endif()
# ferry-hip-was N=6 M=2 h=e999dcc1
# | set(CMAKE_CXX_COMPILER "${ROCM_PATH}/llvm/bin/clang++")
# | find_package(hip REQUIRED)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
# ferry: set(CMAKE_CXX_COMPILER ROCm's clang++) removed: nvcc compiles the CUDA sources
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)
add_executable(scale scale.cpp)
# ferry-hip-was N=2 M=1 h=2a08100b
# | target_link_libraries(scale PRIVATE hip::device hiprtc)
set_source_files_properties(scale.cpp PROPERTIES LANGUAGE CUDA)
target_link_libraries(scale PRIVATE CUDA::cudart CUDA::nvrtc)
if(NOT BUILD_SHARED_LIBS)
# ferry-hip-was N=1 M=1 h=789a0921
# |   target_link_libraries(scale PRIVATE hiprtc-builtins)
  # ferry: target_link_libraries(scale ...) removed: CUDA links none of it (hipcc link options, AMD's runtime internals)
endif()
add_executable(tool tool.cpp)
