# A subdirectory's CMakeLists.txt: the top-level file holds project() and find_package(CUDAToolkit);
# this one only turns CUDA on for its own library.
enable_language(CUDA)
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -rdc=true")
add_library(kernels STATIC blur.cu sharpen.cu util.cpp)
set_target_properties(kernels PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
add_executable(filter main.cpp)
target_link_libraries(filter kernels)
