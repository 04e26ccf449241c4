# Compiler variables assigned without blanks (written for this test): the value is mapped, the
# name and the operator stay.
# ferry-cuda-was N=3 M=3 h=cdb2041c
# | NVCC=nvcc
# | CUDA_CC:=/usr/local/cuda/bin/nvcc
# | FLAGS?=-O3 -arch=sm_80
NVCC=hipcc
CUDA_CC:=hipcc
FLAGS?=-O3 --offload-arch=gfx906

saxpy: saxpy.cu
	$(NVCC) $(FLAGS) -o $@ $<
