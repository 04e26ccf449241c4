# hipcc as the C++ compiler through find_package(hip)'s variable, .cpp sources named by a
# variable, OpenMP flags for the host compiler (written for this test).
cmake_minimum_required(VERSION 3.16)
project(omp_kernels)
find_package(hip REQUIRED)
find_package(OpenMP REQUIRED)
set(CMAKE_CXX_COMPILER ${HIP_HIPCC_EXECUTABLE})
set(CMAKE_CXX_LINKER ${HIP_HIPCC_EXECUTABLE})
set(SOURCES ${CMAKE_SOURCE_DIR}/main.cpp ${CMAKE_SOURCE_DIR}/kernels.cpp)
add_executable(omp_kernels ${SOURCES})
target_compile_options(omp_kernels PRIVATE ${OpenMP_CXX_FLAGS})
target_link_libraries(omp_kernels PRIVATE hip::device ${OpenMP_CXX_FLAGS})
