# Compiler variables assigned without blanks (written for this test): the value is mapped, the
# name and the operator stay.
NVCC=nvcc
CUDA_CC:=/usr/local/cuda/bin/nvcc
FLAGS?=-O3 -arch=sm_80

saxpy: saxpy.cu
	$(NVCC) $(FLAGS) -o $@ $<
