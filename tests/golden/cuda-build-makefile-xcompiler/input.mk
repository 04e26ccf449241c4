# Host-compiler flags handed on with -Xcompiler, which hipcc and nvcc both take, beside bare ones
# (written for this test).
CC = hipcc
CFLAGS := -Xcompiler -Wall -Wextra -O3
LDFLAGS = -lhipblas

axpy: axpy.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDFLAGS)

axpy.o: axpy.cu
	$(CC) $(CFLAGS) -c $< -o $@
