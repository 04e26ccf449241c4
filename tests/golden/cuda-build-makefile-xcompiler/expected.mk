# Host-compiler flags handed on with -Xcompiler, which hipcc and nvcc both take, beside bare ones
# (written for this test).
CC = nvcc
CFLAGS := -Xcompiler -Wall -Xcompiler=-Wextra -O3
LDFLAGS = -lcublas

axpy: axpy.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDFLAGS)

axpy.o: axpy.cu
	$(CC) $(CFLAGS) -c $< -o $@
