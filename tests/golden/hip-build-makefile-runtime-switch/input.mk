# A Makefile with a runtime switch that has a HIP branch (written for this test), set to CUDA as
# HIP -> CUDA leaves such a file: CUDA -> HIP selects the file's own HIP branch again.
GPU_RUNTIME := CUDA

ifeq ($(GPU_RUNTIME), CUDA)
	CXX := nvcc
else ifeq ($(GPU_RUNTIME), HIP)
	CXX := hipcc
endif

switch: main.hip
	$(CXX) -o $@ $<
