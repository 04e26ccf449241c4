// __global__ member functions the member_kernel pass leaves unchanged (FRY1245): nvcc rejects them.
#include <hip/hip_runtime.h>

struct holder
{
    struct inner
    {
        __global__ static void nested(int* c) { *c = 0; }
    };
    __global__ void not_static(int* c) { *c = 1; }
    __global__ static void defined_outside(int* c);
};
