# hipcc-only options, and a macro that selects the 64-lane reduction of the sources
HIPCC ?= /opt/rocm/bin/hipcc
HIPFLAGS = -O3 --offload-arch=gfx90a --offload-arch=gfx942 -DWAVE64 -DWARP_SIZE=64 -munsafe-fp-atomics
LDFLAGS = --hip-link -fopenmp -fgpu-rdc

reduce: reduce.o
	$(HIPCC) $(LDFLAGS) -o $@ $^

reduce.o: reduce.hip
	$(HIPCC) $(HIPFLAGS) -fgpu-rdc -fopenmp -c -o $@ $<
