# A subdirectory's CMakeLists.txt: the top-level file holds project() and find_package(CUDAToolkit);
# this one only turns CUDA on for its own library.
# ferry-cuda-was N=2 M=2 h=83389062
# | enable_language(CUDA)
# | set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -rdc=true")
# ferry: enable_language(CUDA) removed: hipcc compiles .cu as C++/HIP
set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -fgpu-rdc")
add_library(kernels STATIC blur.cu sharpen.cu util.cpp)
# ferry-cuda-was N=3 M=1 h=c7142308
# | set_target_properties(kernels PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
set_source_files_properties(blur.cu sharpen.cu PROPERTIES LANGUAGE CXX)
target_link_libraries(kernels PUBLIC hip::device)
# ferry: set_target_properties(...) removed: it set only CUDA properties
add_executable(filter main.cpp)
target_link_libraries(filter kernels)
