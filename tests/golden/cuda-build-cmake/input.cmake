# A CMake project in CMake's HIP language (written for this test), with a runtime switch that
# already knows CUDA, ROCm packages and targets.
cmake_minimum_required(VERSION 3.21)
set(GPU_RUNTIME "HIP" CACHE STRING "HIP or CUDA")
project(demo LANGUAGES CXX)
enable_language(${GPU_RUNTIME})
set(CMAKE_${GPU_RUNTIME}_STANDARD 17)
set(CMAKE_HIP_ARCHITECTURES gfx906 gfx90a)

find_package(hip REQUIRED)
find_package(hipblas REQUIRED)
find_package(hipcub REQUIRED)

add_executable(demo main.hip util.cpp)
set_source_files_properties(main.hip PROPERTIES LANGUAGE ${GPU_RUNTIME})
target_link_libraries(demo PRIVATE hip::device roc::hipblas)
target_compile_options(demo PRIVATE -munsafe-fp-atomics)

add_library(reduce STATIC reduce.hip)
target_link_libraries(reduce PUBLIC hip::hipcub)
