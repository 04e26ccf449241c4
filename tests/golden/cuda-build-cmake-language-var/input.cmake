# The language of the sources chosen through a variable; the CUDA branch enables it with
# enable_language(${KERNEL_LANG}) and names no architecture (written for this test).
cmake_minimum_required(VERSION 3.21)
project(query LANGUAGES CXX)
set(GPU_RUNTIME "HIP" CACHE STRING "HIP or CUDA")
if(GPU_RUNTIME STREQUAL "CUDA")
  set(KERNEL_LANG "CUDA")
  enable_language(${KERNEL_LANG})
else()
  set(KERNEL_LANG "CXX")
endif()
add_executable(query main.cpp)
set_source_files_properties(main.cpp PROPERTIES LANGUAGE ${KERNEL_LANG})
