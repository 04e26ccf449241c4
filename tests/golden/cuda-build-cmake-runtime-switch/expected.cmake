# A HIP example of the rocm-examples shape (written for this test): a GPU_RUNTIME switch with a
# guard that it is HIP, a code object compiled device-only, a hipify-perl step, hipBLAS found at
# the top level and again in a Windows-only branch.
cmake_minimum_required(VERSION 3.21)
project(example LANGUAGES CXX)
# ferry-hip-was N=2 M=2 h=a58a76ec
# | set(GPU_RUNTIME "HIP" CACHE STRING "Switches between HIP and CUDA")
# | if(NOT "${GPU_RUNTIME}" STREQUAL "HIP")
set(GPU_RUNTIME "CUDA" CACHE STRING "Switches between HIP and CUDA")
if(NOT "${GPU_RUNTIME}" STREQUAL "CUDA")
    message(FATAL_ERROR "GPU_RUNTIME must be HIP.")
endif()
# ferry-hip-was N=3 M=0 h=e7ca380b
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)
endif()
enable_language(${GPU_RUNTIME})
find_package(Perl REQUIRED)
# ferry-hip-was N=7 M=7 h=be49476f
# | find_package(hipblas REQUIRED)
# | add_custom_command(
# |     OUTPUT main.hip
# |     COMMAND ${PERL_EXECUTABLE} ${ROCM_ROOT}/bin/hipify-perl ${CMAKE_CURRENT_SOURCE_DIR}/main.cu -o ${CMAKE_CURRENT_BINARY_DIR}/main.hip
# |     DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/main.cu
# |     VERBATIM
# | )
find_package(CUDAToolkit REQUIRED)
add_custom_command(
    OUTPUT main.hip
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_SOURCE_DIR}/main.cu ${CMAKE_CURRENT_BINARY_DIR}/main.hip
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/main.cu
    VERBATIM
)
add_executable(example ${CMAKE_CURRENT_BINARY_DIR}/main.hip)
# ferry-hip-was N=1 M=0 h=8048adec
set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/main.hip PROPERTIES LANGUAGE CUDA)
add_library(example_module OBJECT module.hip)
# ferry-hip-was N=4 M=2 h=594f878c
# | target_compile_options(example_module PRIVATE --cuda-device-only)
# | target_link_libraries(example PRIVATE roc::hipblas)
set_source_files_properties(module.hip PROPERTIES LANGUAGE CUDA)
# ferry: target_compile_options(example_module ...) held only hipcc flags nvcc has no use for
set_target_properties(example_module PROPERTIES CUDA_FATBIN_COMPILATION ON)  # ferry: device code only, loaded at run time (CMake >= 3.27)
target_link_libraries(example PRIVATE CUDA::cublas)
set_source_files_properties(main.hip PROPERTIES LANGUAGE ${GPU_RUNTIME})
if(CMAKE_SYSTEM_NAME MATCHES Windows)
    if(GPU_RUNTIME STREQUAL "HIP")
        find_package(rocblas REQUIRED)
    elseif(GPU_RUNTIME STREQUAL "CUDA")
        find_package(CUDAToolkit REQUIRED)
    endif()
endif()
