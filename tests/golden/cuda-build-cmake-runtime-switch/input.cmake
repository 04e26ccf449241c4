# A HIP example of the rocm-examples shape (written for this test): a GPU_RUNTIME switch with a
# guard that it is HIP, a code object compiled device-only, a hipify-perl step, hipBLAS found at
# the top level and again in a Windows-only branch.
cmake_minimum_required(VERSION 3.21)
project(example LANGUAGES CXX)
set(GPU_RUNTIME "HIP" CACHE STRING "Switches between HIP and CUDA")
if(NOT "${GPU_RUNTIME}" STREQUAL "HIP")
    message(FATAL_ERROR "GPU_RUNTIME must be HIP.")
endif()
enable_language(${GPU_RUNTIME})
find_package(Perl REQUIRED)
find_package(hipblas REQUIRED)
add_custom_command(
    OUTPUT main.hip
    COMMAND ${PERL_EXECUTABLE} ${ROCM_ROOT}/bin/hipify-perl ${CMAKE_CURRENT_SOURCE_DIR}/main.cu -o ${CMAKE_CURRENT_BINARY_DIR}/main.hip
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/main.cu
    VERBATIM
)
add_executable(example ${CMAKE_CURRENT_BINARY_DIR}/main.hip)
add_library(example_module OBJECT module.hip)
target_compile_options(example_module PRIVATE --cuda-device-only)
target_link_libraries(example PRIVATE roc::hipblas)
set_source_files_properties(main.hip PROPERTIES LANGUAGE ${GPU_RUNTIME})
if(CMAKE_SYSTEM_NAME MATCHES Windows)
    if(GPU_RUNTIME STREQUAL "HIP")
        find_package(rocblas REQUIRED)
    elseif(GPU_RUNTIME STREQUAL "CUDA")
        find_package(CUDAToolkit REQUIRED)
    endif()
endif()
