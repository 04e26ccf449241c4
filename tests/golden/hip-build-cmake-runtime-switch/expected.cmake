# A project with a runtime switch that has a HIP branch (written for this test), set to CUDA as
# HIP -> CUDA leaves such a file: CUDA -> HIP selects the file's own HIP branch again.
cmake_minimum_required(VERSION 3.21)
project(switch LANGUAGES CXX)
# ferry-cuda-was N=1 M=1 h=5eeea9b0
# | set(GPU_RUNTIME "CUDA" CACHE STRING "HIP or CUDA")
set(GPU_RUNTIME "HIP" CACHE STRING "HIP or CUDA")
set(GPU_RUNTIMES "HIP" "CUDA")
set_property(CACHE GPU_RUNTIME PROPERTY STRINGS ${GPU_RUNTIMES})
# ferry-cuda-was N=1 M=1 h=a9f47eef
# | if(NOT "${GPU_RUNTIME}" STREQUAL "CUDA")
if(NOT "${GPU_RUNTIME}" STREQUAL "HIP")
    message(FATAL_ERROR "This example needs the CUDA runtime")
endif()
enable_language(${GPU_RUNTIME})
set(CMAKE_${GPU_RUNTIME}_STANDARD 17)
add_executable(switch main.hip)
set_source_files_properties(main.hip PROPERTIES LANGUAGE ${GPU_RUNTIME})
