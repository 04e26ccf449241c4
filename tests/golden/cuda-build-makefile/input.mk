# A hipcc Makefile of the usual shapes (written for this test): a platform switch with an NVIDIA
# branch, hipcc from ROCm, --offload-arch, ROCm libraries, host warnings, rdc, a hipify step.
ROCM_PATH ?= /opt/rocm
HIPCC     ?= $(ROCM_PATH)/bin/hipcc
GPU_RUNTIME := HIP
GPU_ARCH  := --offload-arch=gfx906 --offload-arch=gfx90a
CXXFLAGS  ?= -Wall -Wextra -O2 -std=c++17
LDLIBS    := -lhipblas -lamdhip64 -lrocrand

ifeq ($(GPU_RUNTIME), CUDA)
	CXXFLAGS += -x cu
else
	CXXFLAGS += -D__HIP_PLATFORM_AMD__ -munsafe-fp-atomics
endif

all: app lib.o

app: main.hip common.hpp
	$(HIPCC) $(GPU_ARCH) $(CXXFLAGS) -o $@ $< $(LDLIBS)

lib.o: lib.cpp
	$(HIPCC) $(GPU_ARCH) -fgpu-rdc -ffast-math -c $< -o $@

linked: main.hip libdev.a
	$(HIPCC) $(GPU_ARCH) -fgpu-rdc -o $@ libdev.a $<

from_cuda.hip: from_cuda.cu
	$(ROCM_PATH)/bin/hipify-perl $< -o $@

.PHONY: all
