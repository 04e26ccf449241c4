# A kernel built by hand with hipcc into a code object that the program loads at run time
# (hipModuleLoad), and hipcc as the C++ compiler for the program (written for this test).
cmake_minimum_required(VERSION 3.16)
project(load_kernel)
# ferry-hip-was N=6 M=2 h=72314ef4
# | find_package(hip REQUIRED)
# | set(CMAKE_CXX_COMPILER ${HIP_HIPCC_EXECUTABLE})
find_package(CUDAToolkit REQUIRED)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
# ferry: set(CMAKE_CXX_COMPILER hipcc) removed: nvcc compiles the CUDA sources
enable_language(CUDA)
add_executable(loader main.cpp)
# ferry-hip-was N=4 M=3 h=038ca15e
# | add_custom_target(kernel_object
# |   COMMAND ${HIP_HIPCC_EXECUTABLE} --genco --offload-arch=gfx90a ${CMAKE_CURRENT_SOURCE_DIR}/kernel.cpp -o kernel.co
# |   COMMENT "kernel code object")
set_source_files_properties(main.cpp PROPERTIES LANGUAGE CUDA)
add_custom_target(kernel_object
  COMMAND nvcc -x cu --fatbin -arch=sm_90 ${CMAKE_CURRENT_SOURCE_DIR}/kernel.cpp -o kernel.co
  COMMENT "kernel code object")
add_dependencies(loader kernel_object)
# ferry-hip-was N=1 M=1 h=915bedb5
# | target_link_libraries(loader hip::host)
target_link_libraries(loader CUDA::cudart)
