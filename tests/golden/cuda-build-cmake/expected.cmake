# A CMake project in CMake's HIP language (written for this test), with a runtime switch that
# already knows CUDA, ROCm packages and targets.
cmake_minimum_required(VERSION 3.21)
# ferry-hip-was N=1 M=1 h=963331ee
# | set(GPU_RUNTIME "HIP" CACHE STRING "HIP or CUDA")
set(GPU_RUNTIME "CUDA" CACHE STRING "HIP or CUDA")
project(demo LANGUAGES CXX)
enable_language(${GPU_RUNTIME})
set(CMAKE_${GPU_RUNTIME}_STANDARD 17)
# ferry-hip-was N=1 M=1 h=8b3a5c35
# | set(CMAKE_HIP_ARCHITECTURES gfx906 gfx90a)
set(CMAKE_CUDA_ARCHITECTURES 90)

# ferry-hip-was N=3 M=3 h=0b099e56
# | find_package(hip REQUIRED)
# | find_package(hipblas REQUIRED)
# | find_package(hipcub REQUIRED)
find_package(CUDAToolkit REQUIRED)
# ferry: find_package(hipblas) -> CUDAToolkit
# ferry: find_package(hipcub) -> CUDAToolkit

add_executable(demo main.hip util.cpp)
# ferry-hip-was N=1 M=0 h=cb4c2e81
set_source_files_properties(util.cpp PROPERTIES LANGUAGE CUDA)
set_source_files_properties(main.hip PROPERTIES LANGUAGE ${GPU_RUNTIME})
# ferry-hip-was N=2 M=2 h=5ab10374
# | target_link_libraries(demo PRIVATE hip::device roc::hipblas)
# | target_compile_options(demo PRIVATE -munsafe-fp-atomics)
target_link_libraries(demo PRIVATE CUDA::cudart CUDA::cublas)
# ferry: target_compile_options(demo ...) held only hipcc flags nvcc has no use for

add_library(reduce STATIC reduce.hip)
# ferry-hip-was N=2 M=1 h=94c69145
# | target_link_libraries(reduce PUBLIC hip::hipcub)
set_source_files_properties(reduce.hip PROPERTIES LANGUAGE CUDA)
# ferry: target_link_libraries(reduce ...) of header-only ROCm libraries removed (CUB/Thrust come with CUDA)
