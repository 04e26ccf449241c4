# The HIP language with ROCm's clang named as its compiler before project() (written for this test).
cmake_minimum_required(VERSION 3.21)
if(NOT DEFINED ROCM_PATH)
  set(ROCM_PATH /opt/rocm)
endif()
set(CMAKE_HIP_COMPILER_ROCM_ROOT ${ROCM_PATH})
set(CMAKE_HIP_COMPILER ${ROCM_PATH}/llvm/bin/clang++)
project(hip_lang LANGUAGES HIP)
add_executable(square square.hip)
