# Host-compiler flags handed on with -Xcompiler, which hipcc and nvcc both take, beside bare ones
# (written for this test).
# ferry-hip-was N=3 M=3 h=b30a9f4b
# | CC = hipcc
# | CFLAGS := -Xcompiler -Wall -Wextra -O3
# | LDFLAGS = -lhipblas
CC = nvcc
CFLAGS := -Xcompiler -Wall -Xcompiler=-Wextra -O3
LDFLAGS = -lcublas

axpy: axpy.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDFLAGS)

axpy.o: axpy.cu
	$(CC) $(CFLAGS) -c $< -o $@
