# A hipcc Makefile of the usual shapes (written for this test): a platform switch with an NVIDIA
# branch, hipcc from ROCm, --offload-arch, ROCm libraries, host warnings, rdc, a hipify step.
ROCM_PATH ?= /opt/rocm
HIPCC     ?= nvcc
GPU_RUNTIME := CUDA
GPU_ARCH  := -arch=sm_90
CXXFLAGS  ?= -Xcompiler=-Wall -Xcompiler=-Wextra -O2 -std=c++17
LDLIBS    := -lcublas -lcudart -lcurand

ifeq ($(GPU_RUNTIME), CUDA)
	CXXFLAGS += -x cu
else
	CXXFLAGS += 
endif

all: app lib.o

app: main.hip common.hpp
	$(HIPCC) $(GPU_ARCH) $(CXXFLAGS) -o $@ $< $(LDLIBS)

lib.o: lib.cpp
	$(HIPCC) -x cu $(GPU_ARCH) -rdc=true --use_fast_math -c $< -o $@

linked: main.hip libdev.a
	$(HIPCC) -x cu -c $(GPU_ARCH) -rdc=true $< -o $@.ferry.o && $(HIPCC) $(GPU_ARCH) -rdc=true -o $@ libdev.a $@.ferry.o

from_cuda.hip: from_cuda.cu
	cp $< $@

.PHONY: all
