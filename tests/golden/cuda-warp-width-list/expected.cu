// A runtime warp size dispatched over the widths {32, 64}: the 64-lane instantiation sizes a
// __shared__ array by BlockSize / WarpSize, which is zero for a 32-thread block.
#include <cuda_runtime.h>

#include <array>
#include <cstddef>

template<int BlockSize, int WarpSize>
__global__ void warp_partials(const float* in, float* out)
{
    __shared__ float partial[BlockSize / WarpSize];
    if(threadIdx.x % WarpSize == 0)
        partial[threadIdx.x / WarpSize] = in[threadIdx.x];
    __syncthreads();
    if(threadIdx.x == 0)
        out[0] = partial[0];
}

constexpr auto warp_widths = std::array{32};

template<std::size_t I = 0>
void launch(const float* in, float* out, int warp_size)
{
    if constexpr(I < warp_widths.size())
    {
        if(warp_size == warp_widths[I])
            warp_partials<32, warp_widths[I]><<<1, 32>>>(in, out);
        else
            launch<I + 1>(in, out, warp_size);
    }
}

// Not a list of warp widths: unchanged.
constexpr auto tile_sizes = std::array{32, 64};

void run(const float* in, float* out, int warp_size)
{
    launch(in, out, warp_size);
}
