# A CMake project in CMake's HIP language (written for this test), with a runtime switch that
# already knows CUDA, ROCm packages and targets.
cmake_minimum_required(VERSION 3.21)
set(GPU_RUNTIME "CUDA" CACHE STRING "HIP or CUDA")
project(demo LANGUAGES CXX)
enable_language(${GPU_RUNTIME})
set(CMAKE_${GPU_RUNTIME}_STANDARD 17)
set(CMAKE_CUDA_ARCHITECTURES 90)

find_package(CUDAToolkit REQUIRED)
# ferry: find_package(hipblas) -> CUDAToolkit
# ferry: find_package(hipcub) -> CUDAToolkit

add_executable(demo main.hip util.cpp)
set_source_files_properties(util.cpp PROPERTIES LANGUAGE CUDA)
set_source_files_properties(main.hip PROPERTIES LANGUAGE ${GPU_RUNTIME})
target_link_libraries(demo PRIVATE CUDA::cudart CUDA::cublas)
# ferry: target_compile_options(demo ...) held only hipcc flags nvcc has no use for

add_library(reduce STATIC reduce.hip)
set_source_files_properties(reduce.hip PROPERTIES LANGUAGE CUDA)
# ferry: target_link_libraries(reduce ...) of header-only ROCm libraries removed (CUB/Thrust come with CUDA)
