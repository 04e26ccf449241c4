# hipcc-only options, and a macro that selects the 64-lane reduction of the sources
HIPCC ?= nvcc
HIPFLAGS = -O3 -arch=sm_90 -DWARP_SIZE=32
LDFLAGS =  -Xcompiler=-fopenmp -rdc=true

reduce: reduce.o
	$(HIPCC) $(LDFLAGS) -o $@ $^

reduce.o: reduce.hip
	$(HIPCC) -x cu $(HIPFLAGS) -rdc=true -Xcompiler=-fopenmp -c -o $@ $<
