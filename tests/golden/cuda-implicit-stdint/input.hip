// <hip/hip_runtime.h> declares the fixed-width integers (through <stdint.h>); <cuda_runtime.h>
// does not. The bare C names, with no header of their own.
#include <hip/hip_runtime.h>

__global__ void mix(uint32_t* out, const uint8_t* in, uint64_t n)
{
    const uint64_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        out[i] = static_cast<uint32_t>(in[i]) * 2654435761u;
}

uint32_t checksum(const uint32_t* values, int32_t count)
{
    uint32_t sum = 0;
    for(int32_t i = 0; i < count; ++i)
        sum ^= values[i];
    return sum;
}
