# hipcc's link options and AMD's runtime internals in target_link_libraries (written for this test):
# relocatable device code through the link line, the code object manager and the HSA runtime.
cmake_minimum_required(VERSION 3.21)
# ferry-hip-was N=5 M=2 h=2721c48e
# | project(rdc LANGUAGES CXX HIP)
# | find_package(hip REQUIRED)
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
project(rdc LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)

add_library(devfuncs STATIC scale.hip)
# ferry-hip-was N=4 M=2 h=a05c1b8b
# | target_compile_options(devfuncs PRIVATE -fgpu-rdc)
# | target_link_libraries(devfuncs PRIVATE -fgpu-rdc)
set_source_files_properties(scale.hip PROPERTIES LANGUAGE CUDA)
target_compile_options(devfuncs PRIVATE -rdc=true)
# ferry: target_link_libraries(devfuncs ...) removed: CUDA links none of it (hipcc link options, AMD's runtime internals)
set_target_properties(devfuncs PROPERTIES CUDA_SEPARABLE_COMPILATION ON)  # ferry: -fgpu-rdc at link

add_executable(app main.hip)
# ferry-hip-was N=2 M=1 h=37af0cf2
# | target_compile_options(app PRIVATE -fgpu-rdc)
set_source_files_properties(main.hip PROPERTIES LANGUAGE CUDA)
target_compile_options(app PRIVATE -rdc=true)
target_link_libraries(app PRIVATE devfuncs)
# ferry-hip-was N=3 M=2 h=3a67b0a5
# | target_link_libraries(app PRIVATE -fgpu-rdc --hip-link hip::host amd_comgr)
# | target_link_libraries(app PRIVATE hsa-runtime64::hsa-runtime64)
target_link_libraries(app PRIVATE CUDA::cudart)
set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)  # ferry: -fgpu-rdc at link
# ferry: target_link_libraries(app ...) removed: CUDA links none of it (hipcc link options, AMD's runtime internals)
