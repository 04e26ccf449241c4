# hipcc's link options and AMD's runtime internals in target_link_libraries (written for this test):
# relocatable device code through the link line, the code object manager and the HSA runtime.
cmake_minimum_required(VERSION 3.21)
project(rdc LANGUAGES CXX HIP)
find_package(hip REQUIRED)

add_library(devfuncs STATIC scale.hip)
target_compile_options(devfuncs PRIVATE -fgpu-rdc)
target_link_libraries(devfuncs PRIVATE -fgpu-rdc)

add_executable(app main.hip)
target_compile_options(app PRIVATE -fgpu-rdc)
target_link_libraries(app PRIVATE devfuncs)
target_link_libraries(app PRIVATE -fgpu-rdc --hip-link hip::host amd_comgr)
target_link_libraries(app PRIVATE hsa-runtime64::hsa-runtime64)
