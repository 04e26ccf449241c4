# A Makefile with a runtime switch that has a HIP branch (written for this test), set to CUDA as
# HIP -> CUDA leaves such a file: CUDA -> HIP selects the file's own HIP branch again.
# ferry-cuda-was N=1 M=1 h=a809f2d4
# | GPU_RUNTIME := CUDA
GPU_RUNTIME := HIP

ifeq ($(GPU_RUNTIME), CUDA)
	CXX := nvcc
else ifeq ($(GPU_RUNTIME), HIP)
	CXX := hipcc
endif

switch: main.hip
	$(CXX) -o $@ $<
