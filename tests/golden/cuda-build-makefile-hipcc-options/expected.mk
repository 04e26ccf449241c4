# hipcc-only options, and a macro that selects the 64-lane reduction of the sources
# ferry-hip-was N=3 M=3 h=de656fd5
# | HIPCC ?= /opt/rocm/bin/hipcc
# | HIPFLAGS = -O3 --offload-arch=gfx90a --offload-arch=gfx942 -DWAVE64 -DWARP_SIZE=64 -munsafe-fp-atomics
# | LDFLAGS = --hip-link -fopenmp -fgpu-rdc
HIPCC ?= nvcc
HIPFLAGS = -O3 -arch=sm_90 -DWARP_SIZE=32
LDFLAGS =  -Xcompiler=-fopenmp -rdc=true

reduce: reduce.o
	$(HIPCC) $(LDFLAGS) -o $@ $^

reduce.o: reduce.hip
# ferry-hip-was N=1 M=1 h=525ca860
# | 	$(HIPCC) $(HIPFLAGS) -fgpu-rdc -fopenmp -c -o $@ $<
	$(HIPCC) -x cu $(HIPFLAGS) -rdc=true -Xcompiler=-fopenmp -c -o $@ $<
