# The HIP language with ROCm's clang named as its compiler before project() (written for this test).
cmake_minimum_required(VERSION 3.21)
if(NOT DEFINED ROCM_PATH)
  set(ROCM_PATH /opt/rocm)
endif()
# ferry-hip-was N=6 M=3 h=28c048d9
# | set(CMAKE_HIP_COMPILER_ROCM_ROOT ${ROCM_PATH})
# | set(CMAKE_HIP_COMPILER ${ROCM_PATH}/llvm/bin/clang++)
# | project(hip_lang LANGUAGES HIP)
# ferry: set(CMAKE_HIP_COMPILER_ROCM_ROOT ...) removed: ROCm's root, nothing in CUDA reads it
# ferry: set(CMAKE_HIP_COMPILER ...) removed: CMake's CUDA language finds nvcc (CUDACXX, PATH or -DCMAKE_CUDA_COMPILER)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
project(hip_lang LANGUAGES CUDA)
add_executable(square square.hip)
# ferry-hip-was N=1 M=0 h=7e8974bc
set_source_files_properties(square.hip PROPERTIES LANGUAGE CUDA)
