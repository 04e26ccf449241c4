# A hipcc Makefile of the usual shapes (written for this test): a platform switch with an NVIDIA
# branch, hipcc from ROCm, --offload-arch, ROCm libraries, host warnings, rdc, a hipify step.
# ferry-hip-was N=6 M=6 h=aaddb272
# | ROCM_PATH ?= /opt/rocm
# | HIPCC     ?= $(ROCM_PATH)/bin/hipcc
# | GPU_RUNTIME := HIP
# | GPU_ARCH  := --offload-arch=gfx906 --offload-arch=gfx90a
# | CXXFLAGS  ?= -Wall -Wextra -O2 -std=c++17
# | LDLIBS    := -lhipblas -lamdhip64 -lrocrand
ROCM_PATH ?= /usr/local/cuda
HIPCC     ?= nvcc
GPU_RUNTIME := CUDA
GPU_ARCH  := -arch=sm_90
CXXFLAGS  ?= -Xcompiler=-Wall -Xcompiler=-Wextra -O2 -std=c++17
LDLIBS    := -lcublas -lcudart -lcurand

ifeq ($(GPU_RUNTIME), CUDA)
	CXXFLAGS += -x cu
else
	CXXFLAGS += -D__HIP_PLATFORM_AMD__ -munsafe-fp-atomics
endif

all: app lib.o

app: main.hip common.hpp
	$(HIPCC) $(GPU_ARCH) $(CXXFLAGS) -o $@ $< $(LDLIBS)

lib.o: lib.cpp
# ferry-hip-was N=1 M=1 h=ed13c161
# | 	$(HIPCC) $(GPU_ARCH) -fgpu-rdc -ffast-math -c $< -o $@
	$(HIPCC) -x cu $(GPU_ARCH) -rdc=true --use_fast_math -c $< -o $@

linked: main.hip libdev.a
# ferry-hip-was N=1 M=1 h=8d435c32
# | 	$(HIPCC) $(GPU_ARCH) -fgpu-rdc -o $@ libdev.a $<
	$(HIPCC) -x cu -c $(GPU_ARCH) -rdc=true $< -o $@.ferry.o && $(HIPCC) $(GPU_ARCH) -rdc=true -o $@ libdev.a $@.ferry.o

from_cuda.hip: from_cuda.cu
# ferry-hip-was N=1 M=1 h=ca17505b
# | 	$(ROCM_PATH)/bin/hipify-perl $< -o $@
	cp $< $@

.PHONY: all
