# hipcc as the C++ compiler through find_package(hip)'s variable, .cpp sources named by a
# variable, OpenMP flags for the host compiler (written for this test).
cmake_minimum_required(VERSION 3.16)
project(omp_kernels)
# ferry-hip-was N=1 M=1 h=b26de538
# | find_package(hip REQUIRED)
find_package(CUDAToolkit REQUIRED)
find_package(OpenMP REQUIRED)
# ferry-hip-was N=6 M=2 h=a443dbfc
# | set(CMAKE_CXX_COMPILER ${HIP_HIPCC_EXECUTABLE})
# | set(CMAKE_CXX_LINKER ${HIP_HIPCC_EXECUTABLE})
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
# ferry: set(CMAKE_CXX_COMPILER hipcc) removed: nvcc compiles the CUDA sources
enable_language(CUDA)
# ferry: set(CMAKE_CXX_LINKER hipcc) removed: CMake links CUDA targets with nvcc
set(SOURCES ${CMAKE_SOURCE_DIR}/main.cpp ${CMAKE_SOURCE_DIR}/kernels.cpp)
add_executable(omp_kernels ${SOURCES})
# ferry-hip-was N=3 M=2 h=17ad0e4a
# | target_compile_options(omp_kernels PRIVATE ${OpenMP_CXX_FLAGS})
# | target_link_libraries(omp_kernels PRIVATE hip::device ${OpenMP_CXX_FLAGS})
set_source_files_properties(${SOURCES} PROPERTIES LANGUAGE CUDA)
target_compile_options(omp_kernels PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${OpenMP_CXX_FLAGS}>)
target_link_libraries(omp_kernels PRIVATE CUDA::cudart ${OpenMP_CXX_FLAGS})
