# A host-compiler build of a ROCm library program (written for this test): g++ compiles main.cpp,
# which includes the runtime header, and links the BLAS library and HIP's runtime from the ROCm
# prefix. On CUDA the same build needs the CUDA toolkit's include and lib64 folders.
# ferry-hip-was N=1 M=1 h=902caca1
# | ROCM_ROOT := /opt/rocm
ROCM_ROOT := /usr/local/cuda
INC_DIR   := $(ROCM_ROOT)/include
CXX       ?= g++
# ferry-hip-was N=3 M=3 h=e4049b9d
# | CPPFLAGS  := -isystem $(INC_DIR) -I../common -D__HIP_PLATFORM_AMD__
# | LDFLAGS   := -L $(ROCM_ROOT)/lib -L/opt/rocm-6.2.0/lib/
# | LDLIBS    := -lrocblas -lamdhip64
CPPFLAGS  := -isystem $(INC_DIR) -I../common
LDFLAGS   := -L $(ROCM_ROOT)/lib64 -L/usr/local/cuda/lib64/
LDLIBS    := -lcublas -lcudart

blas_app: main.cpp
	$(CXX) -std=c++17 $(CPPFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

tool: tool.cpp
# ferry-hip-was N=1 M=1 h=2f73e4a2
# | 	$(CXX) -I/opt/rocm/include -o $@ $< -L/opt/rocm/lib -lamdhip64
	$(CXX) -I/usr/local/cuda/include -o $@ $< -L/usr/local/cuda/lib64 -lcudart

.PHONY: clean
clean:
	$(RM) blas_app tool
