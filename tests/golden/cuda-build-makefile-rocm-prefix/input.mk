# A host-compiler build of a ROCm library program (written for this test): g++ compiles main.cpp,
# which includes the runtime header, and links the BLAS library and HIP's runtime from the ROCm
# prefix. On CUDA the same build needs the CUDA toolkit's include and lib64 folders.
ROCM_ROOT := /opt/rocm
INC_DIR   := $(ROCM_ROOT)/include
CXX       ?= g++
CPPFLAGS  := -isystem $(INC_DIR) -I../common -D__HIP_PLATFORM_AMD__
LDFLAGS   := -L $(ROCM_ROOT)/lib -L/opt/rocm-6.2.0/lib/
LDLIBS    := -lrocblas -lamdhip64

blas_app: main.cpp
	$(CXX) -std=c++17 $(CPPFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

tool: tool.cpp
	$(CXX) -I/opt/rocm/include -o $@ $< -L/opt/rocm/lib -lamdhip64

.PHONY: clean
clean:
	$(RM) blas_app tool
