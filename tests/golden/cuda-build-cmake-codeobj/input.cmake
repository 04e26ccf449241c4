# A kernel built by hand with hipcc into a code object that the program loads at run time
# (hipModuleLoad), and hipcc as the C++ compiler for the program (written for this test).
cmake_minimum_required(VERSION 3.16)
project(load_kernel)
find_package(hip REQUIRED)
set(CMAKE_CXX_COMPILER ${HIP_HIPCC_EXECUTABLE})
add_executable(loader main.cpp)
add_custom_target(kernel_object
  COMMAND ${HIP_HIPCC_EXECUTABLE} --genco --offload-arch=gfx90a ${CMAKE_CURRENT_SOURCE_DIR}/kernel.cpp -o kernel.co
  COMMENT "kernel code object")
add_dependencies(loader kernel_object)
target_link_libraries(loader hip::host)
